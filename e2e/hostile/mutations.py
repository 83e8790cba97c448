"""Every hostile variant of one operation's valid request, each changing one thing, named after what it changed.

The list is deterministic. With HALE_HOSTILE_BUDGET set (a number), each operation's field mutations are sampled
down to that many with a seeded random generator (HALE_HOSTILE_SEED); the default runs them all."""

import os
import random

from hale_http import Request
from hostile_values import (
    AUTHORIZATION_VALUES,
    CONTENT_TYPES,
    DATE_FIELD_HINTS,
    DATES,
    DEEP_ARRAYS,
    DEEP_OBJECTS,
    NUMBERS,
    ONE_MEGABYTE_STRING,
    PATH_VALUES,
    QUERY_VALUES,
    RAW_BODIES,
    SHAPES,
    STRINGS,
    TIMEZONE_VALUES,
)
import jsontext
from jsontext import Pairs, Raw

SEED = int(os.environ.get("HALE_HOSTILE_SEED", "20261125"))
MAX_BODY_SIZE = 1024 * 1024  # over every route's limit but sync's (4 KiB to 64 KiB: docs/operations.md, "Request body limits")
SYNC_MAX_BODY_SIZE = 16 * 1024 * 1024  # the sync route's own limit
LONG_ARRAY = 100_000


class Variant:
    """One hostile request. `protocol_level` marks requests that are not valid HTTP (raw NUL in a path, say): the
    server may refuse them below the routes, so only liveness and 'no 5xx' are checked."""

    def __init__(self, label, request, protocol_level=False):
        self.label = label
        self.request = request
        self.protocol_level = protocol_level
        request.label = label


def variants(template):
    found = []
    found += _header_variants(template)
    found += _path_variants(template)
    found += _query_variants(template)
    if template.method != "GET":
        found += _body_structure_variants(template)
    if template.body is not None:
        found += _field_variants(template)
    return found


def _header_variants(t):
    found = []
    for name, value in AUTHORIZATION_VALUES:
        found.append(Variant(f"Authorization: {name}", t.request().with_header("Authorization", value)))
    if t.token:
        valid = t.request()
        found.append(Variant("Authorization twice", Request(valid.method, valid.path, valid.headers + [
            ("Authorization", "Bearer 1|forged")], valid.body)))
        found.append(Variant("tampered token", t.request().with_header("Authorization", f"Bearer {t.token}x")))
    for name, value in TIMEZONE_VALUES:
        found.append(Variant(f"X-Timezone: {name}", t.request().with_header("X-Timezone", value)))
    found.append(Variant("X-Request-Id of 6,000 characters", t.request().with_header("X-Request-Id", "r" * 6_000)))
    found.append(Variant("X-Request-Id with latin-1 bytes", t.request().with_header("X-Request-Id", "\xff\xfe")))
    found.append(Variant("X-Request-Id with a NUL byte", t.request().with_header("X-Request-Id", "a\x00b"),
                         protocol_level=True))
    if t.method == "GET":
        found.append(Variant("a JSON body on a GET", t.request(raw_body=b'{"a":1e19}').with_header(
            "Content-Type", "application/json")))
    return found


def _path_variants(t):
    found = []
    for param, valid in t.params.items():
        for name, value in PATH_VALUES:
            value = value.replace("{valid}", valid).replace("{VALID}", valid.upper())
            found.append(Variant(f"path {param}: {name}", t.request(params={**t.params, param: value})))
        for name, raw in (("raw NUL byte", "a\x00b"), ("raw 0xFF byte", "\xff"), ("raw space", "a b")):
            found.append(Variant(f"path {param}: {name}", t.request(params={**t.params, param: raw}),
                                 protocol_level=True))
    found.append(Variant("path with %00 appended", _append_to_path(t.request(), "%00")))
    found.append(Variant("path with %FF appended", _append_to_path(t.request(), "%FF")))
    found.append(Variant("path with /.. appended", _append_to_path(t.request(), "/..")))
    found.append(Variant("path with a 20,000-character segment", _append_to_path(t.request(), "/" + "a" * 20_000)))
    return found


def _append_to_path(request, suffix):
    path, _, query = request.path.partition("?")
    request.path = path + suffix + ("?" + query if query else "")
    return request


def _query_variants(t):
    found = []
    for param in t.query:
        for name, value in QUERY_VALUES:
            found.append(Variant(f"query {param}: {name}", t.request(query={**t.query, param: value})))
        found.append(Variant(f"query {param} twice", t.request(query={**t.query, param: [t.query[param], "1e19"]})))
        found.append(Variant(f"query {param} without a value", t.request(query={**t.query, param: None})))
        found.append(Variant(f"query {param}[]", t.request(query={**{k: v for k, v in t.query.items() if k != param},
                                                                    f"{param}%5B%5D": t.query[param]})))
    found.append(Variant("unknown query parameter", t.request(query={**t.query, "hostile": "1e19"})))
    found.append(Variant("1,000 query parameters", t.request(query={**t.query, **{f"p{i}": "1" for i in range(1000)}})))
    return found


def _body_structure_variants(t):
    found = []
    valid_body = jsontext.encode(t.body) if t.body is not None else b"{}"
    for name, content_type in CONTENT_TYPES:
        request = t.request(raw_body=valid_body).with_header("Content-Type", content_type)
        found.append(Variant(f"Content-Type: {name}", request))
    for name, raw in RAW_BODIES:
        found.append(Variant(f"body: {name}", t.request(raw_body=raw)))
    limit = SYNC_MAX_BODY_SIZE if t.operation == "syncHealthSamples" else MAX_BODY_SIZE
    padding = b'{"padding":"' + b"x" * (limit + 1024) + b'"}'
    found.append(Variant(f"body over the route's limit ({len(padding):,} bytes)", t.request(raw_body=padding)))
    chunked = t.request(raw_body=_chunked(padding)).with_header("Transfer-Encoding", "chunked")
    found.append(Variant("chunked body over the route's limit", chunked))
    if t.operation != "syncHealthSamples":
        over_sync = b'{"padding":"' + b"x" * (SYNC_MAX_BODY_SIZE + 1024) + b'"}'
        found.append(Variant("body over 16 MB", t.request(raw_body=over_sync)))
    if isinstance(t.body, dict) and t.body:
        first = next(iter(t.body))
        found.append(Variant(f"duplicate key {first} with 1e19", t.request(
            raw_body=jsontext.encode(Pairs(list(t.body.items()) + [(first, Raw("1e19"))])))))
        found.append(Variant("an unknown field", t.request(
            raw_body=jsontext.encode(Pairs(list(t.body.items()) + [("hostile", Raw("1e19"))])))))
    return found


def _chunked(data, size=65536):
    out = b""
    for start in range(0, len(data), size):
        piece = data[start : start + size]
        out += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def _leaves(value, path=()):
    """(path, value) for every member and element, parents before children."""
    if isinstance(value, dict):
        for key, member in value.items():
            yield path + (key,), member
            yield from _leaves(member, path + (key,))
    elif isinstance(value, list):
        for index, element in enumerate(value[:1]):  # the first element stands for the rest
            yield path + (index,), element
            yield from _leaves(element, path + (index,))


def _replace(value, path, replacement):
    if not path:
        return replacement
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (_replace(v, rest, replacement) if k == head else v) for k, v in value.items()}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, replacement)
    return copy


def _values_for(path, value, first_string, first_container):
    name = str(path[-1]).lower()
    dateish = any(hint in name for hint in DATE_FIELD_HINTS)
    if isinstance(value, bool):
        chosen = SHAPES + NUMBERS[:8] + [("string true", "true")]
    elif isinstance(value, (int, float)):
        chosen = NUMBERS + SHAPES + STRINGS[:3] + DATES[:2]
    elif isinstance(value, str):
        chosen = STRINGS + SHAPES + [n for n in NUMBERS if n[0] in ("1e19", "-0", "NaN token", "2^64", "1e400 (overflows in the text)")]
        chosen = chosen + (DATES if dateish else DATES[:4])
        if first_string:
            chosen = chosen + [ONE_MEGABYTE_STRING]
    else:
        chosen = SHAPES + NUMBERS[:4] + STRINGS[:2]
        if isinstance(value, list) and value:
            chosen = chosen + [(f"{LONG_ARRAY:,} elements", "LONG")]
    if first_container:
        chosen = chosen + [DEEP_ARRAYS, DEEP_OBJECTS]
    return chosen


def _field_variants(t):
    found, first_string, first_container = [], True, True
    leaves = list(_leaves(t.body)) + list(_leaves(t.extra_fields))
    for path, value in leaves:
        for name, replacement in _values_for(path, value, first_string, first_container):
            if replacement == "LONG":
                replacement = _long_array(t, value)
            body = _replace(t.body, path, replacement) if path[0] in t.body else {**t.body, path[0]: replacement}
            label = "/".join(str(p) for p in path)
            found.append(Variant(f"field {label}: {name}", t.request(raw_body=jsontext.encode(body))))
        if isinstance(value, str):
            first_string = False
        first_container = False
    budget = os.environ.get("HALE_HOSTILE_BUDGET")
    if budget and len(found) > int(budget):
        found = random.Random(f"{SEED}/{t.operation}").sample(found, int(budget))
    return found


def _long_array(t, value):
    """A long array of the field's first element: past the documented maximum where there is one (10,000 samples
    or deletions), and small enough for the route's body limit."""
    if t.operation == "syncHealthSamples" and isinstance(value[0], dict):
        return [dict(value[0], id=f"long-{i}") for i in range(10_001)]
    return [value[0]] * LONG_ARRAY
