"""JSON text that Python's `json` cannot write: numbers spelt exactly (`1e400`, `-0`, `NaN`), duplicate keys, invalid
UTF-8 inside strings, nesting deeper than any recursion limit. A `Raw` value is emitted byte for byte; `Pairs` is an
object whose keys may repeat."""

import json


class Raw:
    def __init__(self, text):
        self.data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text

    def __repr__(self):
        shown = self.data[:40]
        return f"Raw({shown!r}{'…' if len(self.data) > 40 else ''})"


class Pairs:
    def __init__(self, pairs):
        self.pairs = list(pairs)


def encode(value):
    if isinstance(value, Raw):
        return value.data
    if isinstance(value, Pairs):
        return b"{" + b",".join(encode(k) + b":" + encode(v) for k, v in value.pairs) + b"}"
    if isinstance(value, dict):
        return encode(Pairs(value.items()))
    if isinstance(value, (list, tuple)):
        return b"[" + b",".join(encode(item) for item in value) + b"]"
    return json.dumps(value, allow_nan=True).encode()


def nested_arrays(depth):
    return Raw(b"[" * depth + b"]" * depth)


def nested_objects(depth):
    return Raw(b'{"a":' * depth + b"{}" + b"}" * depth)
