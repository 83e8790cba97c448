"""Hale's events, received as an app's backend receives them: every delivery verified with the official
`standardwebhooks` package, a receiver that fails for a while and recovers, and (on PostgreSQL) two `hale serve`
sharing one database. Every event must be acknowledged exactly once, and each account's in the order it happened.

`run.sh` starts the servers (HALE_URLS), makes an admin API key (HALE_ADMIN_KEY) and sets a retry schedule of
seconds."""

import datetime
import http.server
import json
import os
import subprocess
import threading
import time
import urllib.request

import pytest
from standardwebhooks import Webhook

URLS = os.environ["HALE_URLS"].split(",")
ADMIN_KEY = os.environ["HALE_ADMIN_KEY"]
BINARY = os.environ["HALE_BINARY"]
EXPECTED = ["account.created", "consent.granted", "health.synced", "health.synced", "consent.revoked"]


class Receiver:
    """An endpoint on loopback: verifies each delivery with every secret it is given, answers 503 to the first
    `failures` requests, then 204 to every verified one."""

    def __init__(self):
        self.lock = threading.Lock()
        self.secrets = []
        self.failures = 0
        self.acknowledged = []  # (webhook-id, event) per 2xx answer
        self.refused = []  # why a delivery did not verify
        self.attempts = 0
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                headers = {name.lower(): value for name, value in self.headers.items()}
                self.send_response(receiver.answer(body, headers))
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hale-events"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, body, headers):
        with self.lock:
            self.attempts += 1
            if self.failures > 0:
                self.failures -= 1
                return 503
            events = []
            for secret in self.secrets:
                try:
                    events.append(Webhook(secret).verify(body, headers))
                except Exception as error:  # noqa: BLE001 - any refusal is a finding
                    self.refused.append(f"{secret[:10]}…: {error}")
            if not events:
                return 400
            self.acknowledged.append((headers["webhook-id"], events[0], headers["webhook-signature"]))
            return 204

    def of(self, account):
        with self.lock:
            return [event["type"] for _, event, _ in self.acknowledged if event["data"].get("accountId") == account]


def call(method, url, path, token, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + path, data=data, method=method, headers={"Authorization": f"Bearer {token}"})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
        return json.loads(text) if text else None


def account(email):
    created = json.loads(subprocess.run(
        [BINARY, "accounts", "create", "--email", email], check=True, capture_output=True, text=True).stdout)
    return created["accountId"], created["token"]


def sample(identifier, value):
    start = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0) - datetime.timedelta(hours=3)
    return {"id": identifier, "type": "steps", "value": value, "unit": "count",
            "startDate": start.isoformat().replace("+00:00", "Z"),
            "endDate": (start + datetime.timedelta(minutes=30)).isoformat().replace("+00:00", "Z")}


def wait_for(condition, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


@pytest.fixture(scope="module")
def receiver():
    receiver = Receiver()
    endpoint = call("POST", URLS[0], "/api/v1/admin/webhooks/endpoints", ADMIN_KEY,
                    {"url": receiver.url, "eventTypes": ["*"], "description": "e2e"})
    receiver.secrets = [endpoint["secret"]]
    receiver.endpoint = endpoint["endpoint"]["id"]
    yield receiver
    receiver.server.shutdown()


def test_every_event_once_in_order_through_failures_and_instances(receiver):
    receiver.failures = 6
    people = []
    for index in range(6):
        account_id, token = account(f"person{index}@example.com")
        people.append(account_id)
        # Each person's requests go to the instances in turn: any instance may write, any may deliver.
        url = URLS[index % len(URLS)]
        call("POST", url, "/api/v1/health/consent", token, {"platform": "apple", "permissions": ["steps"]})
        for batch in range(2):
            body = {"provider": "healthkit", "samples": [sample(f"walk-{index}-{batch}", 1000 + batch)]}
            call("POST", URLS[(index + batch) % len(URLS)], "/api/v1/health/sync", token, body)
        call("DELETE", URLS[(index + 1) % len(URLS)], "/api/v1/health/consent/apple", token)
    assert wait_for(lambda: all(len(receiver.of(person)) >= len(EXPECTED) for person in people)), \
        {person: receiver.of(person) for person in people}
    time.sleep(2)  # any duplicate would have arrived by now
    assert receiver.refused == []
    ids = [identifier for identifier, _, _ in receiver.acknowledged]
    assert len(ids) == len(set(ids)), "an event was acknowledged twice"
    for person in people:
        assert receiver.of(person) == EXPECTED, person
    assert receiver.attempts >= len(ids) + 6
    synced = [event for _, event, _ in receiver.acknowledged if event["type"] == "health.synced"]
    assert all("1000" not in json.dumps(event) and "1001" not in json.dumps(event) for event in synced)
    assert synced[0]["data"]["changed"][0]["type"] == "steps"


def test_failed_tries_are_recorded_and_listed(receiver):
    listed = call("GET", URLS[-1], f"/api/v1/admin/webhooks/deliveries?endpointId={receiver.endpoint}&limit=500",
                  ADMIN_KEY)["deliveries"]
    retried = [delivery for delivery in listed if delivery["attempts"] > 1]
    assert retried, "the receiver's failures left no record"
    assert all(delivery["status"] == "delivered" for delivery in listed)
    assert all(delivery["history"][0]["statusCode"] == 503 for delivery in retried)
    assert all(delivery["history"][-1]["statusCode"] == 204 for delivery in retried)


def test_a_rotated_secret_and_the_old_one_both_verify(receiver):
    old = receiver.secrets[0]
    rotated = call("POST", URLS[0], f"/api/v1/admin/webhooks/endpoints/{receiver.endpoint}/rotate-secret", ADMIN_KEY)
    receiver.secrets = [rotated["secret"]]
    before = len(receiver.acknowledged)
    tested = call("POST", URLS[-1], f"/api/v1/admin/webhooks/endpoints/{receiver.endpoint}/test", ADMIN_KEY)
    assert wait_for(lambda: len(receiver.acknowledged) > before)
    message, event, signature = receiver.acknowledged[-1]
    assert message == tested["messageId"] and event["type"] == "webhook.test"
    assert len(signature.split(" ")) == 2
    receiver.secrets = [old]
    second = call("POST", URLS[0], f"/api/v1/admin/webhooks/endpoints/{receiver.endpoint}/test", ADMIN_KEY)
    assert wait_for(lambda: receiver.acknowledged[-1][0] == second["messageId"])
    assert receiver.refused == []
