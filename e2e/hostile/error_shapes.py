"""Each route's documented error shape, decided as the server decides it: by the path's leading segments.

- `/health` and `/health/*` (seed 001): `{"statusCode": int, "message": str, "error": str}`;
- `/api/v1/auth/oauth/*` (seed 003): JSON:API `{"errors": [{"status", "code", "title", "detail", "indicator", …}]}`
  as `application/vnd.api+json`;
- `/rest/v1/*` (seed 004's Supabase calls): PostgREST's `{"code": str, "details", "hint", "message": str}`;
- every other route: `{"success": false, "error": {"code": str, "message": str}}`.

See `Sources/HaleServer/HTTP/ErrorRenderer.swift`, `Surfaces/Health/NestErrorRenderer.swift` and
`Surfaces/SocialSignIn/JSONAPIErrorRenderer.swift`."""

import json


def shape_for(path):
    """The shape for a path, by its raw (still percent-encoded) segments, as `ErrorRenderers` matches them."""
    segments = [s for s in path.split("?")[0].split("/") if s]
    if segments[:1] == ["health"]:
        return "nest"
    if segments[:4] == ["api", "v1", "auth", "oauth"]:
        return "jsonapi"
    if segments[:2] == ["rest", "v1"]:
        return "postgrest"
    return "core"


def strict_json(body):
    """JSON as RFC 8259 defines it: NaN and Infinity are not JSON, whatever Python's decoder allows."""

    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(body, parse_constant=refuse)


def problems(path, response):
    """What is wrong with a 4xx response's body for this path; empty when it is in the documented shape."""
    shape = shape_for(path)
    content_type = (response.header("content-type") or "").split(";")[0].strip().lower()
    expected_type = "application/vnd.api+json" if shape == "jsonapi" else "application/json"
    found = []
    if content_type != expected_type:
        found.append(f"Content-Type is {content_type or 'absent'!r}, not {expected_type}")
    try:
        body = strict_json(response.body)
    except ValueError as error:
        return found + [f"body is not JSON ({error}): {response.body[:120]!r}"]
    check = {"nest": _nest, "jsonapi": _jsonapi, "postgrest": _postgrest, "core": _core}[shape]
    return found + check(body, response.status)


def _nest(body, status):
    if not isinstance(body, dict) or set(body) != {"statusCode", "message", "error"}:
        return [f"not seed 001's {{statusCode, message, error}}: {json.dumps(body)[:200]}"]
    found = []
    if type(body["statusCode"]) is not int or body["statusCode"] != status:
        found.append(f"statusCode {body['statusCode']!r} is not the status {status}")
    if not isinstance(body["message"], str) or not isinstance(body["error"], str):
        found.append("message and error must be strings")
    return found


def _jsonapi(body, status):
    if not isinstance(body, dict) or set(body) != {"errors"} or not isinstance(body["errors"], list):
        return [f"not seed 003's JSON:API errors: {json.dumps(body)[:200]}"]
    if not body["errors"]:
        return ["errors is empty"]
    found = []
    for entry in body["errors"]:
        required = {"status", "code", "title", "detail", "indicator"}
        if not isinstance(entry, dict) or not required <= set(entry) or set(entry) - required - {"source"}:
            found.append(f"error entry not in seed 003's shape: {json.dumps(entry)[:200]}")
            continue
        if entry["status"] != str(status):
            found.append(f"entry status {entry['status']!r} is not {status}")
        if not all(isinstance(entry[k], str) for k in required):
            found.append("status, code, title, detail and indicator must be strings")
    return found


def _postgrest(body, status):
    ok = (
        isinstance(body, dict)
        and set(body) == {"code", "details", "hint", "message"}
        and isinstance(body["code"], str)
        and isinstance(body["message"], str)
        and all(body[k] is None or isinstance(body[k], str) for k in ("details", "hint"))
    )
    return [] if ok else [f"not PostgREST's {{code, details, hint, message}}: {json.dumps(body)[:200]}"]


def _core(body, status):
    ok = (
        isinstance(body, dict)
        and set(body) == {"success", "error"}
        and body["success"] is False
        and isinstance(body["error"], dict)
        and set(body["error"]) == {"code", "message"}
        and all(isinstance(body["error"][k], str) for k in ("code", "message"))
    )
    return [] if ok else [f"not the core {{success: false, error: {{code, message}}}}: {json.dumps(body)[:200]}"]
