"""A mixed load against two `hale serve` behind nginx on one PostgreSQL (`run.sh` starts them), then the checks
issue 33 asks for: no 5xx; every event delivered once, verified with `standardwebhooks`; every single-use value
used once. Prints a summary as JSON (requests, rates, latencies by kind) for docs/scaling.md.

    load.py --url https://127.0.0.1:PORT --cafile CERT --admin-key KEY --binary HALE --seconds 30 --state FILE
    load.py --url … --cafile … --sign-in-from FILE      (after a restore: the saved device key signs in)
"""

import argparse
import base64
import datetime
import http.client
import http.server
import json
import secrets
import ssl
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from standardwebhooks import Webhook


class Client:
    """One keep-alive HTTPS connection through the proxy; records each request's kind, status and latency."""

    def __init__(self, url, context, record):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port, self.context, self.record = parts.hostname, parts.port, context, record
        self.secure = parts.scheme == "https"
        self.connection = None

    def call(self, kind, method, path, token=None, body=None, expect=(200,)):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        for attempt in range(2):
            if self.connection is None:
                self.connection = (
                    http.client.HTTPSConnection(self.host, self.port, context=self.context, timeout=30)
                    if self.secure else http.client.HTTPConnection(self.host, self.port, timeout=30))
            started = time.monotonic()
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                text = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A keep-alive connection the proxy closed between requests: once more on a new one.
                self.connection = None
                if attempt == 1:
                    raise
        self.record(kind, response.status, time.monotonic() - started, response.status in expect)
        if response.status not in expect:
            raise Unexpected(f"{kind}: {method} {path} answered {response.status}: {text[:300]!r}")
        return json.loads(text) if text else None


class Unexpected(Exception):
    pass


class Receiver:
    """The app backend's endpoint: verifies each delivery with the official library, acknowledges it once."""

    def __init__(self):
        self.lock = threading.Lock()
        self.secret = None
        self.acknowledged = {}  # webhook-id -> event
        self.duplicates = []
        self.refused = []
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                headers = {name.lower(): value for name, value in self.headers.items()}
                try:
                    event = Webhook(receiver.secret).verify(body, headers)
                except Exception as error:  # noqa: BLE001
                    receiver.refused.append(str(error))
                    self.send_response(400)
                    self.end_headers()
                    return
                with receiver.lock:
                    identifier = headers["webhook-id"]
                    if identifier in receiver.acknowledged:
                        receiver.duplicates.append(identifier)
                    receiver.acknowledged[identifier] = event
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/events"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def count(self, event_type):
        with self.lock:
            return sum(1 for event in self.acknowledged.values() if event["type"] == event_type)


class DeviceKey:
    def __init__(self, pem=None):
        self.key = (serialization.load_pem_private_key(pem.encode(), None) if pem
                    else ec.generate_private_key(ec.SECP256R1()))

    def public_pem(self):
        return self.key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode().strip()

    def private_pem(self):
        return self.key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()

    def sign(self, text):
        return base64.b64encode(self.key.sign(text.encode(), ec.ECDSA(hashes.SHA256()))).decode()


class Person:
    def __init__(self, client, binary, index):
        created = json.loads(subprocess.run(
            [binary, "accounts", "create", "--email", f"load{index}-{secrets.token_hex(3)}@example.com"],
            check=True, capture_output=True, text=True).stdout)
        self.account, self.pat = created["accountId"], created["token"]
        self.key, self.fingerprint = DeviceKey(), f"load-{secrets.token_hex(8)}"
        client.call("setup", "POST", "/api/v1/health/consent", self.pat, {"platform": "apple", "permissions": ["steps"]})
        challenge = client.call("setup", "POST", "/api/v1/devices/register/challenge", self.pat, {
            "deviceName": f"Load {index}", "deviceType": "mobile", "deviceFingerprint": self.fingerprint,
            "publicKey": self.key.public_pem(), "keyAlgorithm": "ES256"})
        client.call("setup", "POST", "/api/v1/devices/register/verify", self.pat, {
            "sessionId": challenge["sessionId"], "signedChallenge": self.key.sign(challenge["challenge"])})


def sign_in(client, key, fingerprint):
    challenge = client.call("sign-in", "POST", "/api/v1/auth/biometric/challenge", body={"deviceFingerprint": fingerprint})
    body = {"sessionId": challenge["sessionId"], "signedChallenge": key.sign(challenge["challenge"])}
    tokens = client.call("sign-in", "POST", "/api/v1/auth/biometric/verify", body=body)["tokens"]
    return tokens, body


def samples(count):
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    out = []
    for _ in range(count):
        start = now - datetime.timedelta(minutes=secrets.randbelow(60 * 24 * 20) + 60)
        out.append({"id": secrets.token_hex(16), "type": "steps", "value": 10 + secrets.randbelow(500),
                    "unit": "count", "startDate": start.isoformat().replace("+00:00", "Z"),
                    "endDate": (start + datetime.timedelta(minutes=5)).isoformat().replace("+00:00", "Z")})
    return out


def work(person, client, deadline, tally, failures):
    try:
        spent = []
        while time.monotonic() < deadline:
            tokens, used = sign_in(client, person.key, person.fingerprint)
            tally["sign-ins"] += 1
            spent.append(used)
            refreshed = client.call("refresh", "POST", "/api/v1/auth/refresh", body={"refreshToken": tokens["refreshToken"]})
            access = refreshed["tokens"]["accessToken"] if "tokens" in refreshed else refreshed["accessToken"]
            body = {"provider": "healthkit", "samples": samples(20)}
            client.call("sync", "POST", "/api/v1/health/sync", access, body)
            tally["syncs"] += 1
            client.call("statistics", "GET", "/health/statistics?period=week", access)
            if len(spent) % 4 == 0:
                # A signed challenge is single-use: the same answer again is refused, whichever instance gets it.
                client.call("replay", "POST", "/api/v1/auth/biometric/verify", body=spent[-2], expect=(400, 401, 404))
                tally["replays refused"] += 1
    except Exception as error:  # noqa: BLE001 - every failure is reported
        failures.append(f"{person.account}: {error}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--cafile", required=True)
    parser.add_argument("--admin-key")
    parser.add_argument("--binary")
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--people", type=int, default=6)
    parser.add_argument("--state")
    parser.add_argument("--sign-in-from")
    options = parser.parse_args()
    context = ssl.create_default_context(cafile=options.cafile)
    latencies, statuses, lock = {}, {}, threading.Lock()

    def record(kind, status, seconds, expected):
        with lock:
            latencies.setdefault(kind, []).append(seconds)
            statuses[status] = statuses.get(status, 0) + 1

    if options.sign_in_from:
        saved = json.load(open(options.sign_in_from))
        tokens, _ = sign_in(Client(options.url, context, record), DeviceKey(saved["key"]), saved["fingerprint"])
        assert tokens["accessToken"], tokens
        print(json.dumps({"restored sign-in": "ok", "account": saved["account"]}))
        return 0

    setup = Client(options.url, context, record)
    receiver = Receiver()
    endpoint = setup.call("setup", "POST", "/api/v1/admin/webhooks/endpoints", options.admin_key,
                          {"url": receiver.url, "eventTypes": ["session.created", "health.synced"]}, expect=(201,))
    receiver.secret = endpoint["secret"]
    people = [Person(setup, options.binary, index) for index in range(options.people)]
    json.dump({"account": people[0].account, "fingerprint": people[0].fingerprint, "key": people[0].key.private_pem()},
              open(options.state, "w"))

    tally = {"sign-ins": 0, "syncs": 0, "replays refused": 0}
    failures, started = [], time.monotonic()
    deadline = started + options.seconds
    threads = [threading.Thread(target=work, args=(person, Client(options.url, context, record), deadline, tally, failures))
               for person in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started

    # The events: every sign-in's session.created and every sync's health.synced, each acknowledged once.
    drain = time.monotonic() + 60
    while time.monotonic() < drain:
        pending = setup.call("admin", "GET", "/api/v1/admin/webhooks/deliveries?status=pending&limit=5", options.admin_key)
        sending = setup.call("admin", "GET", "/api/v1/admin/webhooks/deliveries?status=sending&limit=5", options.admin_key)
        if not pending["deliveries"] and not sending["deliveries"]:
            break
        time.sleep(0.5)
    else:
        failures.append("webhook deliveries still waiting a minute after the load")
    time.sleep(1)
    if receiver.duplicates:
        failures.append(f"{len(receiver.duplicates)} events acknowledged twice")
    if receiver.refused:
        failures.append(f"{len(receiver.refused)} deliveries failed verification: {receiver.refused[:3]}")
    sessions, synced = receiver.count("session.created"), receiver.count("health.synced")
    if sessions != tally["sign-ins"] + options.people * 0:
        failures.append(f"{tally['sign-ins']} sign-ins but {sessions} session.created events acknowledged")
    if synced != tally["syncs"]:
        failures.append(f"{tally['syncs']} syncs but {synced} health.synced events acknowledged")
    server_errors = sum(count for status, count in statuses.items() if status >= 500)
    if server_errors:
        failures.append(f"{server_errors} responses were 5xx")

    summary = {
        "seconds": round(elapsed, 1), "people": options.people, "requests": sum(statuses.values()),
        "requestsPerSecond": round(sum(statuses.values()) / elapsed, 1), "statuses": statuses, **tally,
        "eventsAcknowledged": len(receiver.acknowledged),
        "latencyMs": {kind: {"p50": round(statistics.median(values) * 1000, 1),
                             "p95": round(sorted(values)[int(len(values) * 0.95) - 1] * 1000, 1), "n": len(values)}
                      for kind, values in latencies.items() if values},
        "failures": failures,
    }
    print(json.dumps(summary, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
