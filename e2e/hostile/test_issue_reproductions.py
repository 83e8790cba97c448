"""The issue's own reproductions ("Hostile clients: no crash, no stall, no leak"), exactly as reported."""

import datetime
import threading
import time

from attack import Stalled
from bystander import BYSTANDER_BOUND_SECONDS
from hale_http import Request
from jsontext import Raw, encode

# A sync of one sample may take this long at most, whatever its dates. The sample took minutes.
ONE_SAMPLE_BOUND_SECONDS = 5.0


def sync_request(token, sample_fields, label):
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    sample = {
        "id": f"issue-{time.monotonic_ns()}",
        "type": "steps",
        "value": 100,
        "unit": "count",
        "startDate": (now - datetime.timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "endDate": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    sample.update(sample_fields)
    body = encode({"provider": "healthkit", "samples": [sample]})
    headers = [("Authorization", f"Bearer {token}"), ("Content-Type", "application/json")]
    return Request("POST", "/api/v1/health/sync", headers, body, label)


def test_a_sample_of_1e19_steps_does_not_kill_the_server_on_the_next_read(world, attack):
    """Grant consent for steps, sync one sample of 1e19, then GET /health/today: the process died with
    'Double value cannot be converted to Int64'."""
    victim = world.sacrificial("1e19")
    world.server.expect("POST", "/api/v1/health/consent", victim.token, {"platform": "apple", "permissions": ["steps"]})
    failures = []
    _, found = attack.send("/api/v1/health/sync", sync_request(victim.token, {"value": Raw("1e19")}, "sync 1e19 steps"))
    failures += found
    today = Request("GET", "/health/today", [("Authorization", f"Bearer {victim.token}")], label="then /health/today")
    _, found = attack.send("/health/today", today)
    failures += found
    attack.assert_clean(failures)


def test_a_sample_spanning_ten_thousand_years_neither_stalls_nor_blocks_other_writers(world, attack, server):
    """A sample from 0001-01-01 to 9999-12-31 stalled the SQLite writer for minutes, while other accounts' writes
    waited 10 s and got a 500."""
    victim = world.sacrificial("epoch")
    world.grant_consent(victim)
    other = world.b
    writes = []
    done = threading.Event()

    def other_account_writes():
        """Account B grants consent again and again while the sync runs (each write bounded, so a stuck server
        cannot keep this thread, or the suite, waiting)."""
        while not done.is_set() and len(writes) < 10:
            started = time.monotonic()
            response = server.call("POST", "/api/v1/health/consent", other.token,
                                   {"platform": "google", "permissions": ["steps"]}, timeout=12)
            writes.append((time.monotonic() - started, response.status, response.error))
            done.wait(0.2)

    writer = threading.Thread(target=other_account_writes, daemon=True)
    request = sync_request(
        victim.token, {"startDate": "0001-01-01T00:00:00Z", "endDate": "9999-12-31T00:00:00Z"}, "sync 0001…9999"
    )
    writer.start()
    started = time.monotonic()
    stalled = None
    try:
        response, failures = attack.send("/api/v1/health/sync", request)
    except Stalled as error:
        stalled, response, failures = error, None, []
    finally:
        took = time.monotonic() - started
        done.set()
        writer.join(timeout=15)
    problems = [f.line for f in failures]
    if stalled:
        problems.append(str(stalled).split("\n--- server log tail")[0])
    if took > ONE_SAMPLE_BOUND_SECONDS:
        answer = "none" if response is None else (response.status or response.error)
        problems.append(f"[stall] the sync took {took:.1f} s (bound {ONE_SAMPLE_BOUND_SECONDS} s), answer {answer}")
    for seconds, status, error in writes:
        if status != 200 or seconds > BYSTANDER_BOUND_SECONDS:
            problems.append(f"[stall] account B's consent write answered {status or error} in {seconds:.1f} s")
    report = "\n".join(problems) + "\n--- server log tail ---\n" + server.log_tail()
    if stalled:
        raise Stalled(report)  # stops the run: every later request would wait on the stuck server
    assert not problems, report
