"""The hostile-client suite's fixtures. It runs only against a server that `run.sh` started (HALE_HOSTILE_URL set);
a plain `pytest e2e` without one collects none of it.

The session builds the world (two accounts made through the API), starts the bystander, runs the attacks in a fixed
order, and stops at the first crash or stall: after either, later results only repeat it."""

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from attack import Attack, Stalled  # noqa: E402
from bystander import Bystander  # noqa: E402
from server import Server, ServerDied  # noqa: E402

ACTIVE = bool(os.environ.get("HALE_HOSTILE_URL"))
# A plain `pytest e2e` (as .ci/run's browser step runs it) does not even import these tests.
collect_ignore_glob = [] if ACTIVE else ["test_*.py"]

# Files run in this order; the bystander's verdict and the log check come last.
ORDER = [
    "test_openapi_coverage",
    "test_issue_reproductions",
    "test_every_route",
    "test_statistics_ranges",
    "test_sync_samples_property",
    "test_bystander",
    "test_log_hygiene",
]


def pytest_collection_modifyitems(config, items):
    if not ACTIVE:
        return

    def rank(item):
        name = item.module.__name__.rsplit(".", 1)[-1]
        return ORDER.index(name) if name in ORDER else len(ORDER) - 2

    items.sort(key=rank)


def openapi_operations():
    """(operationId, method, path) of every operation the running server documents, read once."""
    global _OPERATIONS
    if _OPERATIONS is None:
        server = Server.from_environment()
        response = server.call("GET", "/openapi.json")
        document = json.loads(response.body)
        _OPERATIONS = [
            (operation["operationId"], method.upper(), path)
            for path, item in document["paths"].items()
            for method, operation in item.items()
            if method in ("get", "post", "put", "patch", "delete")
        ]
    return _OPERATIONS


_OPERATIONS = None
SUMMARY = {}  # the session's attack and bystander, for the terminal summary


def pytest_generate_tests(metafunc):
    if "operation" in metafunc.fixturenames:
        operations = openapi_operations() if ACTIVE else [("none", "GET", "/")]
        metafunc.parametrize("operation", operations, ids=[o[0] for o in operations])


@pytest.fixture(scope="session")
def server():
    return Server.from_environment()


@pytest.fixture(scope="session")
def world(server):
    from world import World

    return World(server)


@pytest.fixture(scope="session")
def bystander(server, world):
    probe = Bystander(server, world.b)
    probe.start()
    SUMMARY["bystander"] = probe
    yield probe
    probe.stop()


@pytest.fixture(scope="session")
def attack(server, world, bystander):
    SUMMARY["attack"] = Attack(server, world, bystander)
    return SUMMARY["attack"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.excinfo is not None and call.excinfo.errisinstance((ServerDied, Stalled)):
        what = "died" if call.excinfo.errisinstance(ServerDied) else "stalled"
        item.session.shouldstop = f"the server {what} during {item.name}: later results would only repeat it"
    return report


def pytest_terminal_summary(terminalreporter):
    if "attack" in SUMMARY:
        terminalreporter.write_line(f"hostile: {SUMMARY['attack'].sent} requests sent")
    if "bystander" in SUMMARY:
        terminalreporter.write_line(f"bystander: {SUMMARY['bystander'].distribution()}")
