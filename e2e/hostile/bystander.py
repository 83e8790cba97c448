"""The bystander: account B, on another account, reads and writes every ~200 ms while the attack runs.

A hostile request must not make the server slow or failing for anyone else: a stalled SQLite writer, a blocked event
loop or an exhausted connection pool shows up here first."""

import threading
import time

# The slowest answer a bystander may get. Two seconds is far above what one small read or write costs on this
# machine even in a debug build (tens of milliseconds), and far below the 10 s a writer waits for the SQLite lock.
BYSTANDER_BOUND_SECONDS = 2.0
PROBE_INTERVAL_SECONDS = 0.2


class Probe:
    def __init__(self, started, kind, status, seconds, error):
        self.started, self.kind, self.status, self.seconds, self.error = started, kind, status, seconds, error

    @property
    def failed(self):
        return self.status != 200 or self.seconds > BYSTANDER_BOUND_SECONDS

    def describe(self):
        return f"{self.kind} answered {self.status or self.error} in {self.seconds:.2f} s"


class Bystander(threading.Thread):
    def __init__(self, server, actor):
        super().__init__(daemon=True, name="bystander")
        self.server, self.actor = server, actor
        self.probes = []
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    def run(self):
        turn = 0
        while not self.stopping.is_set():
            turn += 1
            self._probe("read GET /api/v1/account", "GET", "/api/v1/account", None)
            self._probe("write PATCH /api/v1/devices/{B}", "PATCH", f"/api/v1/devices/{self.actor.device_id}",
                        {"deviceName": f"B's phone {turn % 10}"})
            self.stopping.wait(PROBE_INTERVAL_SECONDS)

    def _probe(self, kind, method, path, body):
        started = time.monotonic()
        response = self.server.call(method, path, self.actor.token, body, timeout=10)
        with self.lock:
            self.probes.append(Probe(started, kind, response.status, response.seconds, response.error))

    def stop(self):
        self.stopping.set()
        self.join(timeout=15)

    def failures_between(self, start, end, excluding=()):
        """Failed probes that started in [start, end], leaving out those that overlap an `excluding` window."""
        with self.lock:
            return [p for p in self.probes if p.failed and start <= p.started <= end
                    and not any(a <= p.started + p.seconds and p.started <= b for a, b in excluding)]

    def distribution(self):
        with self.lock:
            times = sorted(p.seconds for p in self.probes)
        if not times:
            return "no probes"

        def at(q):
            return times[min(len(times) - 1, int(q * len(times)))]

        failed = sum(1 for p in self.probes if p.failed)
        return (f"{len(times)} probes: min {times[0]*1000:.0f} ms, median {at(0.5)*1000:.0f} ms, "
                f"p95 {at(0.95)*1000:.0f} ms, p99 {at(0.99)*1000:.0f} ms, max {times[-1]*1000:.0f} ms; "
                f"{failed} over {BYSTANDER_BOUND_SECONDS:.0f} s or failed")
