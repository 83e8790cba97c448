"""A raw HTTP/1.1 client for hostile requests.

`urllib` and `http.client` refuse exactly what this suite must send: NUL bytes and invalid UTF-8 in paths, duplicate
or missing headers, bodies that disagree with their Content-Type. This client writes the bytes it is given on a fresh
connection and reads one response. When the server answers before the whole body is sent (a 413, say) and closes,
the response is still read, as a real client would see it.
"""

import json
import socket
import time
from dataclasses import dataclass, field

# A response slower than this is a stall: the request is abandoned and reported. Generous, because the suite runs
# against a debug build on a shared two-core machine; the bystander's bound is the strict one.
REQUEST_TIMEOUT_SECONDS = 20.0


@dataclass
class Request:
    """One request, as bytes where it matters: `path` may hold any byte (latin-1 text maps one character to one
    byte); `headers` is a list so a name may repeat or be absent; `body` is sent as is."""

    method: str
    path: str
    headers: list = field(default_factory=list)
    body: bytes = b""
    label: str = ""

    def with_header(self, name, value):
        """A copy with `name` set to `value` (replacing any), or removed when `value` is None."""
        kept = [(n, v) for n, v in self.headers if n.lower() != name.lower()]
        if value is not None:
            kept.append((name, value))
        return Request(self.method, self.path, kept, self.body, self.label)

    def header(self, name):
        for n, v in self.headers:
            if n.lower() == name.lower():
                return v
        return None

    def reproduction(self, base_url):
        """A one-line curl reproduction: method, path, headers, and the body's first 200 bytes (with its size)."""
        parts = ["curl -sS -X", self.method]
        for name, value in self.headers:
            shown = value if len(value) <= 120 else value[:120] + f"…({len(value)} chars)"
            parts += ["-H", _quote(f"{name}: {shown}")]
        if self.body:
            prefix = self.body[:200].decode("utf-8", "backslashreplace")
            size = f" …({len(self.body)} bytes)" if len(self.body) > 200 else ""
            parts += ["--data-binary", _quote(prefix + size)]
        path = self.path if len(self.path) <= 200 else self.path[:200] + f"…({len(self.path)} chars)"
        parts.append(_quote(base_url + path.encode("latin-1", "replace").decode("utf-8", "backslashreplace")))
        return " ".join(parts)


@dataclass
class Response:
    status: int
    headers: dict
    body: bytes
    seconds: float
    error: str = ""  # set when no complete response came back (timeout, reset, malformed)

    def header(self, name):
        return self.headers.get(name.lower())

    def json(self):
        return json.loads(self.body)


def _quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def send(host, port, request, timeout=REQUEST_TIMEOUT_SECONDS):
    """Sends `request` on a new connection and reads the response; never raises for what the server does."""
    head = f"{request.method} {request.path} HTTP/1.1\r\n".encode("latin-1", "replace")
    headers = list(request.headers)
    if not any(n.lower() == "host" for n, _ in headers):
        headers.insert(0, ("Host", f"localhost:{port}"))
    if request.body and not any(n.lower() in ("content-length", "transfer-encoding") for n, _ in headers):
        headers.append(("Content-Length", str(len(request.body))))
    elif not request.body and request.method in ("POST", "PUT", "PATCH"):
        if not any(n.lower() in ("content-length", "transfer-encoding") for n, _ in headers):
            headers.append(("Content-Length", "0"))
    headers.append(("Connection", "close"))
    for name, value in headers:
        head += f"{name}: {value}\r\n".encode("latin-1", "replace")
    head += b"\r\n"
    started = time.monotonic()
    try:
        connection = socket.create_connection((host, port), timeout=timeout)
    except OSError as error:
        return Response(0, {}, b"", time.monotonic() - started, f"connect failed: {error}")
    with connection:
        connection.settimeout(timeout)
        try:
            connection.sendall(head + request.body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered early and closed; its answer may still be readable
        except socket.timeout:
            return Response(0, {}, b"", time.monotonic() - started, "timeout while sending")
        return _read_response(connection, started, timeout)


def _read_response(connection, started, timeout):
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                break
            data += chunk
        if b"\r\n\r\n" not in data:
            return Response(0, {}, data, time.monotonic() - started, "connection closed before a response")
        head, rest = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        body = _read_body(connection, headers, rest)
        return Response(status, headers, body, time.monotonic() - started)
    except socket.timeout:
        return Response(0, {}, data, time.monotonic() - started, f"no response within {timeout:.0f} s (stall)")
    except (ConnectionResetError, ValueError, IndexError) as error:
        return Response(0, {}, data, time.monotonic() - started, f"broken response: {error!r}")


def _read_body(connection, headers, rest):
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while not _chunked_complete(rest):
            chunk = connection.recv(65536)
            if not chunk:
                raise ValueError("chunked body cut short")
            rest += chunk
        return _dechunk(rest)
    if "content-length" in headers:
        length = int(headers["content-length"])
        while len(rest) < length:
            chunk = connection.recv(65536)
            if not chunk:
                raise ValueError(f"body cut short at {len(rest)} of {length} bytes")
            rest += chunk
        return rest[:length]
    while True:
        chunk = connection.recv(65536)
        if not chunk:
            return rest
        rest += chunk


def _chunked_complete(data):
    try:
        _dechunk(data)
        return True
    except ValueError:
        return False


def _dechunk(data):
    body, position = b"", 0
    while True:
        end = data.find(b"\r\n", position)
        if end < 0:
            raise ValueError("incomplete chunk size")
        size = int(data[position:end].split(b";")[0], 16)
        if size == 0:
            if data.find(b"\r\n", end + 2) < 0:
                raise ValueError("incomplete trailer")
            return body
        start = end + 2
        if len(data) < start + size + 2:
            raise ValueError("incomplete chunk")
        body += data[start : start + size]
        position = start + size + 2


def json_body(value):
    """Compact JSON bytes, allowing NaN/Infinity only when a test put them there on purpose."""
    return json.dumps(value, separators=(",", ":"), allow_nan=True).encode()
