"""Runs hostile requests against one operation and judges each answer; after a hostile write the server accepted,
reads the account's health data back, as the app would next, because a poisoned value often explodes only then."""

import datetime
import time

import checks
from hale_http import Request
from server import ServerDied


class Stalled(AssertionError):
    """A request got no answer within the timeout: the server may be stuck for minutes, so later results would
    only repeat this one."""


class Attack:
    def __init__(self, server, world, bystander):
        self.server, self.world, self.bystander = server, world, bystander
        self.sent = 0

    def send(self, path_template, request, protocol_level=False, read_back=False):
        """Sends one request; returns (response, failures)."""
        response = self.server.send(request)
        self.sent += 1
        failures = checks.judge(self.server, path_template, request, response, protocol_level)
        if any(f.kind == checks.STALL for f in failures):
            raise Stalled(self.report(failures))
        if read_back and 200 <= response.status < 300:
            failures += self.read_back(request.label)
        return response, failures

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

    def run(self, template, variants):
        """Every variant, then the valid request itself; returns the failures."""
        started = time.monotonic()
        failures = []
        writes_health = template.method != "GET" and ("health" in template.path or "challenges" in template.path)
        for variant in variants:
            _, found = self.send(template.path, variant.request, variant.protocol_level, read_back=writes_health)
            failures += found
        baseline = template.request(label="the valid request, after the attack")
        response, found = self.send(template.path, baseline, read_back=writes_health)
        failures += found
        if response.status not in template.baseline:
            failures.append(checks.Failure(
                "suite", f"the valid request answered {response.status} (expected {template.baseline}): "
                f"{response.body[:200]!r}", baseline, self.server))
        for probe in self.bystander.failures_between(started, time.monotonic()):
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
