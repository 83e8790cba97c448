"""The hostile values, named so a failure says which one it was. Each list is (name, value); a value is JSON data
or a `jsontext.Raw` spelling."""

from jsontext import Raw, nested_arrays, nested_objects

NUMBERS = [
    ("1e308", Raw("1e308")),
    ("-1e308", Raw("-1e308")),
    ("max double", Raw("1.7976931348623157e308")),
    ("1e19", Raw("1e19")),
    ("-1e19", Raw("-1e19")),
    ("-0", Raw("-0")),
    ("-0.0", Raw("-0.0")),
    ("5e-324 (smallest subnormal)", Raw("5e-324")),
    ("2.225e-308 (largest subnormal)", Raw("2.2250738585072009e-308")),
    ("1e-310 (subnormal)", Raw("1e-310")),
    ("1e400 (overflows in the text)", Raw("1e400")),
    ("-1e400", Raw("-1e400")),
    ("1e-400 (underflows)", Raw("1e-400")),
    ("NaN token", Raw("NaN")),
    ("Infinity token", Raw("Infinity")),
    ("-Infinity token", Raw("-Infinity")),
    ("2^63", Raw("9223372036854775808")),
    ("2^63-1", Raw("9223372036854775807")),
    ("-2^63-1", Raw("-9223372036854775809")),
    ("2^64", Raw("18446744073709551616")),
    ("10^30", Raw("1" + "0" * 30)),
    ("100,000 digits", Raw("1" * 100_000)),
    ("0", 0),
    ("-1", -1),
    ("1.5", 1.5),
    ("1e19 as a string", "1e19"),
    ("42 as a string", "42"),
    ("1e308 as a string", "1e308"),
    ("NaN as a string", "NaN"),
    ("Infinity as a string", "Infinity"),
]

DATES = [
    ("0001-01-01", "0001-01-01"),
    ("9999-12-31", "9999-12-31"),
    ("year 0", "0000-01-01"),
    ("+275760-09-13", "+275760-09-13"),
    ("-000001-01-01", "-000001-01-01"),
    ("2025-02-30", "2025-02-30"),
    ("2025-13-01", "2025-13-01"),
    ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
    ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
    ("year 0 time", "0000-01-01T00:00:00Z"),
    ("+275760-09-13T00:00:00Z", "+275760-09-13T00:00:00Z"),
    ("-271821-04-20T00:00:00Z", "-271821-04-20T00:00:00Z"),
    ("offset +18:00", "2025-01-01T00:00:00+18:00"),
    ("offset -18:01", "2025-01-01T00:00:00-18:01"),
    ("offset +99:99", "2025-01-01T00:00:00+99:99"),
    ("24:00:00", "2025-01-01T24:00:00Z"),
    ("leap second", "2016-12-31T23:59:60Z"),
    ("12 fraction digits", "2025-01-01T00:00:00.123456789123Z"),
    ("bare +18:00", "+18:00"),
    ("bare -18:01", "-18:01"),
    ("bare +99:99", "+99:99"),
    ("bare -00:00", "-00:00"),
]

STRINGS = [
    ("empty string", ""),
    ("NUL", "\u0000"),
    ("NUL inside", "a\u0000b"),
    ("invalid UTF-8", Raw(b'"\xff\xfe"')),
    ("overlong NUL", Raw(b'"\xc0\x80"')),
    ("lone surrogate", Raw('"\\ud800"')),
    ("right-to-left override", "\u202eevil"),
    ("10,000 characters", "A" * 10_000),
    ("path traversal", "../../../../etc/passwd"),
    ("SQL", "' OR 1=1 --"),
]

SHAPES = [
    ("null", None),
    ("true", True),
    ("empty array", []),
    ("empty object", {}),
]

# Costly values: each operation gets them once, on its first field of the kind, not on every field.
ONE_MEGABYTE_STRING = ("1 MB string", "x" * 1_000_000)
DEEP_ARRAYS = ("arrays nested 10,000 deep", nested_arrays(10_000))
DEEP_OBJECTS = ("objects nested 10,000 deep", nested_objects(10_000))

QUERY_VALUES = [
    ("empty", ""),
    ("1e19", "1e19"),
    ("-1", "-1"),
    ("-0", "-0"),
    ("1e308", "1e308"),
    ("NaN", "NaN"),
    ("2^63", "9223372036854775808"),
    ("10^30", "1" + "0" * 30),
    ("%00", "%00"),
    ("a%00b", "a%00b"),
    ("%FF", "%FF"),
    ("bad escape", "%G0"),
    ("10,000 characters", "A" * 10_000),
    ("0001-01-01", "0001-01-01"),
    ("9999-12-31", "9999-12-31"),
    ("year 0", "0000-01-01"),
    ("+275760-09-13", "%2B275760-09-13"),
    ("2025-02-30", "2025-02-30"),
    ("true", "true"),
    ("brackets", "%5B%5D"),
]

PATH_VALUES = [
    ("%00", "%00"),
    ("valid%00", "{valid}%00"),
    ("%FF", "%FF"),
    ("overlong NUL", "%C0%80"),
    ("dot dot", ".."),
    ("encoded dot dot", "%2E%2E"),
    ("encoded slash", "%2F"),
    ("5,000 characters", "A" * 5_000),
    ("1e19", "1e19"),
    ("-0", "-0"),
    ("2^63", "9223372036854775808"),
    ("nil UUID", "00000000-0000-0000-0000-000000000000"),
    ("uppercase", "{VALID}"),
    ("space", "%20"),
    ("NaN", "NaN"),
    ("a log line of its own", "x%0A%5Bcritical%5D%20" + "forged-by-client"),
]

# What a path segment that tries to forge a log line starts the forged line with, decoded.
FORGED_LOG_LINE = "[critical] forged-by-client"

AUTHORIZATION_VALUES = [
    ("no Authorization", None),
    ("Bearer alone", "Bearer"),
    ("Bearer and space", "Bearer "),
    ("8,000-character token", "Bearer " + "A" * 8_000),
    ("token 1e19", "Bearer 1e19"),
    ("PAT with id 2^63", "Bearer 9223372036854775808|secret"),
    ("PAT with id -1", "Bearer -1|secret"),
    ("PAT with no secret", "Bearer 1|"),
    ("PAT with id 0", "Bearer 0|0"),
    ("three dots", "Bearer a.b.c"),
    ("unsigned JWT", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."),
    ("Basic", "Basic YTpi"),
    ("admin key shape", "Bearer admin.1.x"),
    ("latin-1 bytes", "Bearer \xff\xfe"),
]

TIMEZONE_VALUES = [
    ("+99:99", "+99:99"),
    ("Etc/GMT+14", "Etc/GMT+14"),
    ("Etc/GMT-14", "Etc/GMT-14"),
    ("path traversal", "../../../../etc/localtime"),
    ("10,000 characters", "A" * 10_000),
    ("empty", ""),
    ("unknown zone", "Mars/Olympus_Mons"),
    ("+18:00", "+18:00"),
    ("-18:01", "-18:01"),
    ("GMT+99", "GMT+99"),
    ("latin-1 bytes", "Europe/Berlin\xff"),
]

CONTENT_TYPES = [
    ("no Content-Type", None),
    ("text/plain", "text/plain"),
    ("form", "application/x-www-form-urlencoded"),
    ("multipart", "multipart/form-data; boundary=x"),
    ("JSON in UTF-16", "application/json; charset=utf-16"),
    ("application/jsonx", "application/jsonx"),
    ("JSON:API", "application/vnd.api+json"),
    ("XML", "application/xml"),
    ("*/*", "*/*"),
    ("empty", ""),
]

RAW_BODIES = [
    ("empty body", b""),
    ("null", b"null"),
    ("array", b"[]"),
    ("string", b'"x"'),
    ("number 1e19", b"1e19"),
    ("truncated", b"{"),
    ("XML", b"<x/>"),
    ("invalid UTF-8", b"\xff\xfe\x00"),
    ("NUL bytes", b"\x00" * 64),
    ("BOM then JSON", b"\xef\xbb\xbf{}"),
    ("UTF-16 JSON", '{"a":1}'.encode("utf-16")),
    ("arrays nested 10,000 deep", b"[" * 10_000 + b"]" * 10_000),
    ("objects nested 10,000 deep", b'{"a":' * 10_000 + b"{}" + b"}" * 10_000),
    ("arrays nested 100,000 deep", b"[" * 100_000 + b"]" * 100_000),
    ("1 MB JSON string", b'"' + b"x" * 1_000_000 + b'"'),
]

DATE_FIELD_HINTS = ("date", "offset", "modified", "expires", "time")
