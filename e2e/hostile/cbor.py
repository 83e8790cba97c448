"""The few CBOR (RFC 8949) encodings a `none` attestation object and a COSE key need, written by hand.

Maps are written in the canonical order CTAP2 uses (shorter encoded keys first, then bytewise), which is what
authenticators send and what a strict decoder may insist on.
"""


def _head(major, value):
    if value < 24:
        return bytes([major << 5 | value])
    for size, code in ((1, 24), (2, 25), (4, 26), (8, 27)):
        if value < 1 << (8 * size):
            return bytes([major << 5 | code]) + value.to_bytes(size, "big")
    raise ValueError("integer too large for CBOR")


def encode(value):
    if isinstance(value, bool) or value is None:
        raise TypeError("not needed here")
    if isinstance(value, int):
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, bytes):
        return _head(2, len(value)) + value
    if isinstance(value, str):
        data = value.encode()
        return _head(3, len(data)) + data
    if isinstance(value, list):
        return _head(4, len(value)) + b"".join(encode(item) for item in value)
    if isinstance(value, dict):
        pairs = sorted(((encode(k), encode(v)) for k, v in value.items()), key=lambda kv: (len(kv[0]), kv[0]))
        return _head(5, len(pairs)) + b"".join(k + v for k, v in pairs)
    raise TypeError(type(value))
