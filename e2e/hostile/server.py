"""The `hale serve` process under attack: where it listens, whether it is alive, and what it logged.

`run.sh` starts the server and passes HALE_HOSTILE_URL, HALE_HOSTILE_PID and HALE_HOSTILE_LOG (and an admin API key,
made with the CLI before the server started, in HALE_HOSTILE_ADMIN_KEY)."""

import json
import os
import signal
import subprocess
import time
import urllib.parse

import hale_http
from hale_http import Request


class ServerDied(AssertionError):
    """The process crashed: nothing after this request can be trusted."""


class ServerUnresponsive(AssertionError):
    """The process runs but /healthz got no answer within 5 s: the server is stuck (a blocked event loop, say)."""

CRASH_MARKERS = ("Fatal error", "Program crashed")


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
        except OSError:  # it ended while being read
            return f"process {self.pid} is gone"
        return ""

    def log_size(self):
        try:
            return os.path.getsize(self.log_path)
        except OSError:
            return 0

    def log_since(self, offset):
        try:
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                return log.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def crash_summary(self, offset):
        """The crash message and the first frames in Hale's own sources that the log got since `offset`."""
        lines = self.log_since(offset).splitlines()
        message = [line.strip() for line in lines if "Fatal error" in line][:1]
        frames = [line.strip() for line in lines if "/Sources/" in line and "/.build/" not in line][:3]
        return message + frames

    def check_alive(self, log_offset=None):
        """Raises ServerDied if the process is gone, or began a crash report since `log_offset` (a Swift crash
        report takes seconds to write, while the process still exists); ServerUnresponsive if it runs but /healthz
        gets no answer within 5 s."""
        if self.dead:
            raise ServerDied(self.dead)
        state = self.process_state()
        if not state and log_offset is not None:
            if any(marker in self.log_since(log_offset) for marker in CRASH_MARKERS):
                state = "the process is crashing (crash report in the log)"
        if state:
            self.dead = state
            raise ServerDied(state)
        health = self.send(Request("GET", "/healthz"), timeout=5)
        if health.status != 200:
            state = self.process_state()
            if state or (log_offset is not None and any(m in self.log_since(log_offset) for m in CRASH_MARKERS)):
                self.dead = state or "the process is crashing (crash report in the log)"
                raise ServerDied(self.dead)
            raise ServerUnresponsive(f"/healthz answered {health.status or health.error}")

    def restart(self):
        """Findings mode only (HALE_HOSTILE_KEEP_GOING): kill what is left of the process and start `hale serve`
        again on the same database and port, with the environment run.sh exported. Records the new pid in
        HALE_HOSTILE_PID_FILE so run.sh checks the process that is running at the end."""
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for _ in range(100):
            if self.process_state():
                break
            time.sleep(0.1)
        log = open(self.log_path, "ab")
        log.write(b"\n===== hostile suite: restarting hale serve =====\n")
        process = subprocess.Popen([os.environ["HALE_HOSTILE_BINARY"], "serve"], stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.pid = process.pid
        with open(os.environ["HALE_HOSTILE_PID_FILE"], "w") as pid_file:
            pid_file.write(str(self.pid))
        for _ in range(150):
            if self.send(Request("GET", "/readyz"), timeout=2).status == 200:
                self.dead = ""
                return
            time.sleep(0.2)
        raise ServerDied("hale serve did not come back after a restart")

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
