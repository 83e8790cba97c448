"""What must hold after every request, and the one-line report of what did not.

After each request: the process is alive (pid and /healthz); the status is not 5xx and a response came back within
the request timeout; a 4xx body is valid JSON in the route's documented shape; a 429 carries Retry-After; a 2xx
body declared as JSON is valid JSON (a stream cut short by an error is not)."""

import error_shapes
from server import ServerDied, ServerUnresponsive

# The classes, as FINDINGS.md groups them.
CRASH = "crash"
STALL = "stall"
SERVER_ERROR = "5xx for a client mistake"
SHAPE = "non-documented error shape"
INVALID_SUCCESS = "invalid 2xx body"


class Failure:
    def __init__(self, kind, detail, request, server):
        self.kind = kind
        self.detail = detail
        self.line = f"[{kind}] {request.label or request.method}: {detail}\n    {request.reproduction(server.url)}"


def judge(server, path_template, variant_request, response, protocol_level=False, log_offset=None):
    """The failures one response shows; raises ServerDied (with the report) if the process crashed.

    The error shape is decided by the path actually requested, segment by segment as the server decides it: a
    hostile `/health%00` is not under `/health`, while `/health/today%00` is."""
    failures = []
    try:
        server.check_alive(log_offset)
    except ServerDied as died:
        failure = Failure(CRASH, f"{died} after this request (answer: {response.status or response.error})",
                          variant_request, server)
        raise ServerDied(failure.line) from None
    except ServerUnresponsive as stuck:
        return [Failure(STALL, f"the whole server stopped answering: {stuck} after this request (answer: "
                        f"{response.status or response.error} in {response.seconds:.1f} s)", variant_request, server)]
    if response.status == 0:
        if protocol_level and "stall" not in response.error:
            return failures  # refused below HTTP: the connection closed, the server lives
        kind = STALL if "stall" in response.error else SERVER_ERROR
        failures.append(Failure(kind, response.error, variant_request, server))
        return failures
    if response.status >= 500:
        failures.append(Failure(SERVER_ERROR, f"{response.status} in {response.seconds:.2f} s, body "
                                f"{response.body[:100]!r}", variant_request, server))
    elif 400 <= response.status < 500 and not protocol_level:
        problems = error_shapes.problems(variant_request.path, response)
        if problems:
            failures.append(Failure(SHAPE, f"{response.status}: " + "; ".join(problems), variant_request, server))
        if response.status == 429 and not response.header("retry-after"):
            failures.append(Failure(SHAPE, "429 without Retry-After", variant_request, server))
    elif 200 <= response.status < 300:
        content_type = (response.header("content-type") or "").lower()
        if "json" in content_type and response.body:
            try:
                error_shapes.strict_json(response.body)
            except ValueError as error:
                failures.append(Failure(INVALID_SUCCESS, f"{response.status} with a body that is not JSON ({error}), "
                                        f"ending {response.body[-80:]!r}", variant_request, server))
    return failures
