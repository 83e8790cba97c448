"""Traces from `hale serve`, received by an OTLP/HTTP endpoint on loopback and read with OpenTelemetry's own
protobuf definitions (`opentelemetry-proto`): a span per request named for its route, continuing the caller's
`traceparent`; database transactions and webhook deliveries as spans of their own; no identifier of a path, no token
and no secret in any name or attribute.

Run with HALE_BINARY naming a built `hale`; the test starts the server itself on a SQLite file of its own."""

import http.server
import json
import os
import secrets
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
import uuid

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

BINARY = os.environ["HALE_BINARY"]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Collector:
    """OTLP/HTTP traces (protobuf) at /v1/traces; anything posted to /events is answered 204 (a webhook endpoint)."""

    def __init__(self):
        self.spans, self.lock = [], threading.Lock()
        collector = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path == "/v1/traces":
                    request = ExportTraceServiceRequest()
                    request.ParseFromString(body)
                    with collector.lock:
                        for resource in request.resource_spans:
                            service = {a.key: a.value.string_value for a in resource.resource.attributes}
                            for scope in resource.scope_spans:
                                for span in scope.spans:
                                    collector.spans.append({
                                        "name": span.name, "trace": span.trace_id.hex(), "id": span.span_id.hex(),
                                        "parent": span.parent_span_id.hex(), "kind": span.kind,
                                        "service": service.get("service.name"),
                                        "attributes": {a.key: str(a.value).strip() for a in span.attributes},
                                    })
                self.send_response(200 if self.path == "/v1/traces" else 204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def call(url, method, path, token=None, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + path, data=data, method=method, headers=headers or {})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture(scope="module")
def traced():
    collector = Collector()
    folder = tempfile.mkdtemp(prefix="hale-traces.")
    port = free_port()
    environment = dict(os.environ, HALE_DATABASE_URL=f"sqlite:{folder}/hale.sqlite", HALE_SERVER_PORT=str(port),
                       HALE_SERVER_DATA_DIRECTORY=f"{folder}/data", HALE_WEBHOOKS_DELIVERY_INTERVAL="200ms",
                       HALE_TRACING_OTLP_ENDPOINT=f"http://127.0.0.1:{collector.port}/v1/traces",
                       HALE_TRACING_SERVICE_NAME="hale-e2e")
    subprocess.run([BINARY, "migrate"], env=environment, check=True, capture_output=True)
    person = json.loads(subprocess.run([BINARY, "accounts", "create", "--email", "traced@example.com"],
                                       env=environment, check=True, capture_output=True, text=True).stdout)
    admin = json.loads(subprocess.run([BINARY, "admin-keys", "create", "--name", "traces"], env=environment,
                                      check=True, capture_output=True, text=True).stdout)["key"]
    log = open(f"{folder}/serve.log", "w")
    server = subprocess.Popen([BINARY, "serve"], env=environment, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(url + "/readyz", timeout=2)
            break
        except OSError:
            time.sleep(0.2)
    trace, parent = secrets.token_hex(16), secrets.token_hex(8)
    missing = str(uuid.uuid4())
    requests = {
        "traced": call(url, "POST", "/api/v1/health/consent", person["token"],
                       {"platform": "apple", "permissions": ["steps"]},
                       headers={"traceparent": f"00-{trace}-{parent}-01"}),
        "missing": call(url, "GET", f"/api/v1/confirmations/{missing}", person["token"]),
        "endpoint": call(url, "POST", "/api/v1/admin/webhooks/endpoints", admin,
                         {"url": f"http://127.0.0.1:{collector.port}/events", "eventTypes": ["*"]}),
    }
    call(url, "POST", "/api/v1/health/consent", person["token"], {"platform": "google", "permissions": ["steps"]})
    time.sleep(1.5)  # the consent's webhook delivery
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=30)
    log.close()
    yield {"collector": collector, "trace": trace, "parent": parent, "missing": missing, "person": person,
           "admin": admin, "requests": requests}
    collector.server.shutdown()


def test_the_requests_answered(traced):
    assert traced["requests"]["traced"][0] == 200
    assert traced["requests"]["missing"][0] == 404
    assert traced["requests"]["endpoint"][0] == 201


def test_a_request_continues_its_callers_trace_and_its_transaction_is_a_child(traced):
    spans = traced["collector"].spans
    server = [s for s in spans if s["name"] == "POST /api/v1/health/consent" and s["trace"] == traced["trace"]]
    assert len(server) == 1, [s["name"] for s in spans]
    assert server[0]["parent"] == traced["parent"]
    assert server[0]["service"] == "hale-e2e"
    assert server[0]["attributes"]["http.response.status_code"].endswith("200")
    children = [s for s in spans if s["parent"] == server[0]["id"]]
    assert any(s["name"] == "db.transaction" for s in children), [s["name"] for s in children]


def test_spans_name_routes_not_paths(traced):
    names = {s["name"] for s in traced["collector"].spans}
    assert "GET /api/v1/confirmations/:confirmationID" in names, names
    assert "POST /api/v1/admin/webhooks/endpoints" in names


def test_webhook_deliveries_are_traced_and_idle_jobs_are_not(traced):
    spans = traced["collector"].spans
    assert any(s["name"] == "webhook.deliver" for s in spans)
    # Background jobs claim work every fraction of a second; only the work they find makes a trace.
    assert not [s for s in spans if s["name"] == "db.transaction" and not s["parent"]]


def test_no_identifier_token_or_secret_in_any_span(traced):
    spans = traced["collector"].spans
    text = json.dumps(spans)
    # HTTP clients' own spans would carry whole URLs, and providers' URLs carry tokens: Hale names the host alone.
    assert not [s for s in spans if {"url.full", "url.path", "url.query"} & set(s["attributes"])]
    person, admin = traced["person"], traced["admin"]
    for secret in [traced["missing"], person["token"].split("|")[1], admin.split(".")[-1], "Bearer", "whsec_"]:
        assert secret not in text, secret
