"""The `hale serve` process under attack: where it listens, whether it is alive, and what it logged.

`run.sh` starts the server and passes HALE_HOSTILE_URL, HALE_HOSTILE_PID and HALE_HOSTILE_LOG (and an admin API key,
made with the CLI before the server started, in HALE_HOSTILE_ADMIN_KEY)."""

import json
import os
import urllib.parse

import hale_http
from hale_http import Request


class ServerDied(AssertionError):
    """The process is gone or no longer answers /healthz: nothing after this request can be trusted."""


class Server:
    def __init__(self, url, pid, log_path, admin_key):
        parsed = urllib.parse.urlsplit(url)
        self.url = url.rstrip("/")
        self.host = parsed.hostname
        self.port = parsed.port
        self.pid = pid
        self.log_path = log_path
        self.admin_key = admin_key
        self.dead = ""

    @classmethod
    def from_environment(cls):
        return cls(
            os.environ["HALE_HOSTILE_URL"],
            int(os.environ["HALE_HOSTILE_PID"]),
            os.environ.get("HALE_HOSTILE_LOG", ""),
            os.environ.get("HALE_HOSTILE_ADMIN_KEY", ""),
        )

    def send(self, request, timeout=hale_http.REQUEST_TIMEOUT_SECONDS):
        return hale_http.send(self.host, self.port, request, timeout=timeout)

    def call(self, method, path, token=None, body=None, headers=(), timeout=hale_http.REQUEST_TIMEOUT_SECONDS):
        """A well-formed JSON request, as a real client sends it."""
        all_headers = list(headers)
        if token:
            all_headers.append(("Authorization", f"Bearer {token}"))
        data = b""
        if body is not None:
            all_headers.append(("Content-Type", "application/json"))
            data = hale_http.json_body(body)
        return self.send(Request(method, path, all_headers, data), timeout=timeout)

    def expect(self, method, path, token=None, body=None, status=(200, 201), headers=()):
        """A setup call that must succeed; returns the decoded body."""
        response = self.call(method, path, token, body, headers)
        statuses = status if isinstance(status, tuple) else (status,)
        if response.status not in statuses:
            raise AssertionError(
                f"setup {method} {path} answered {response.status} {response.error}: {response.body[:500]!r}"
            )
        return json.loads(response.body) if response.body else None

    def process_state(self):
        """'' while the process runs; otherwise why not."""
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return f"process {self.pid} is gone"
        try:
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    if line.startswith("State:") and "Z" in line.split()[1]:
                        return f"process {self.pid} exited (zombie)"
        except FileNotFoundError:
            return f"process {self.pid} is gone"
        return ""

    def check_alive(self):
        """Raises ServerDied unless the process runs and /healthz answers 200 within 5 s."""
        if self.dead:
            raise ServerDied(self.dead)
        state = self.process_state()
        if not state:
            health = self.send(Request("GET", "/healthz"), timeout=5)
            if health.status != 200:
                state = f"/healthz answered {health.status} {health.error}".strip()
        if state:
            self.dead = state
            raise ServerDied(state)

    def log_tail(self, lines=25):
        """The log's last lines, preceded by a crash's message and the top of its backtrace if there is one (a
        Swift crash report ends with pages of registers that would hide them)."""
        text = self.log_text()
        if not text:
            return "(no log)"
        all_lines = text.splitlines()
        crash = []
        for index, line in enumerate(all_lines):
            if "Fatal error" in line or "Program crashed" in line:
                crash.append(line)
            if " crashed:" in line:
                crash += all_lines[index : index + 12]
        tail = all_lines[-lines:]
        return "\n".join((["[crash report]"] + crash + ["[last lines]"] if crash else []) + tail)

    def log_text(self):
        try:
            with open(self.log_path, "rb") as log:
                return log.read().decode("utf-8", "replace")
        except OSError:
            return ""
