"""Runs hostile requests against one operation and judges each answer; after a hostile write the server accepted,
reads the account's health data back, as the app would next, because a poisoned value often explodes only then."""

import datetime
import os
import time

import checks
from hale_http import Request
from server import ServerDied


# Findings mode: after a crash or a stall, record it, restart the server and go on, so that one run lists every
# failure instead of stopping at the first. CI runs without it: the first crash fails the run.
KEEP_GOING = os.environ.get("HALE_HOSTILE_KEEP_GOING") == "1"


class Stalled(AssertionError):
    """A request got no answer within the timeout: the server may be stuck for minutes, so later results would
    only repeat this one."""


class Attack:
    def __init__(self, server, world, bystander):
        self.server, self.world, self.bystander = server, world, bystander
        self.sent = 0
        self.restarts = []  # (from, to) monotonic times while a crashed or stuck server was being replaced

    def send(self, path_template, request, protocol_level=False, read_back=False):
        """Sends one request; returns (response, failures)."""
        log_offset, sent_at = self.server.log_size(), time.monotonic()
        response = self.server.send(request)
        self.sent += 1
        try:
            failures = checks.judge(self.server, path_template, request, response, protocol_level, log_offset)
        except ServerDied as died:
            if not KEEP_GOING:
                raise ServerDied(str(died) + self.crash_note(log_offset)) from None
            return response, [self.recover(checks.CRASH, str(died), log_offset, sent_at)]
        stalls = [f for f in failures if f.kind == checks.STALL]
        if stalls:
            if not KEEP_GOING:
                raise Stalled(self.report(failures))
            return response, [self.recover(checks.STALL, stalls[0].line, log_offset, sent_at)]
        if read_back and 200 <= response.status < 300:
            failures += self.read_back(request.label)
        return response, failures

    def crash_note(self, log_offset):
        return "".join(f"\n    log: {line}" for line in self.server.crash_summary(log_offset))

    def recover(self, kind, line, log_offset, sent_at):
        """Findings mode: the failure, with the crash message from the log, after restarting the server and
        deleting A's health data (a poisoned value would crash every later read the same way). The bystander's
        probes that fail while the server is down are not counted again."""
        note = self.crash_note(log_offset)
        self.server.restart()
        self.restarts.append((sent_at, time.monotonic()))
        self.server.call("DELETE", "/api/v1/health/data", self.world.a.token)
        failure = checks.Failure(kind, "", Request("GET", "/"), self.server)
        failure.line = line + note + "\n    (findings mode: the server was restarted and A's health data deleted)"
        return failure

    def read_back(self, after):
        failures = []
        token = self.world.a.token
        start = (datetime.date.today() - datetime.timedelta(days=40)).isoformat()
        end = (datetime.date.today() + datetime.timedelta(days=1)).isoformat()
        reads = [
            ("/health/today", "GET /health/today"),
            (f"/health/statistics?startDate={start}&endDate={end}&period=day", "GET /health/statistics"),
            ("/api/v1/health/export", "GET /api/v1/health/export"),
            (f"/api/v1/challenges/{self.world.challenge_id}/leaderboard", "GET leaderboard"),
        ]
        for path, name in reads:
            request = Request("GET", path, [("Authorization", f"Bearer {token}")], label=f"{name} after «{after}»")
            _, found = self.send(path, request)
            failures += found
        return failures

    def run(self, template, variants, fresh=None):
        """Every variant, then the valid request itself, made anew by `fresh` when given: some variants are valid
        requests with a harmless change (an X-Request-Id, say), and they spend single-use challenges and end the
        sessions and devices that destructive operations act on. Returns the failures."""
        started = time.monotonic()
        failures = []
        writes_health = template.method != "GET" and ("health" in template.path or "challenges" in template.path)
        for variant in variants:
            _, found = self.send(template.path, variant.request, variant.protocol_level, read_back=writes_health)
            failures += found
        template = fresh() if fresh else template
        baseline = template.request(label="the valid request, after the attack")
        response, found = self.send(template.path, baseline, read_back=writes_health)
        failures += found
        if response.status not in template.baseline:
            failures.append(checks.Failure(
                "suite", f"the valid request answered {response.status} (expected {template.baseline}): "
                f"{response.body[:200]!r}", baseline, self.server))
        for probe in self.bystander.failures_between(started, time.monotonic(), excluding=self.restarts):
            failures.append(checks.Failure(checks.STALL, f"bystander {probe.describe()} during this attack",
                                           baseline, self.server))
        return failures

    def report(self, failures):
        lines = [f.line for f in failures]
        return (f"{len(failures)} failure(s):\n" + "\n".join(lines) + "\n--- server log tail ---\n"
                + self.server.log_tail())

    def assert_clean(self, failures):
        if failures:
            raise AssertionError(self.report(failures))


__all__ = ["Attack", "Stalled", "ServerDied"]
