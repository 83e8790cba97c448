"""No secret the suite handled (access and refresh tokens, the admin API key) appears in the server's log, and no
client wrote a log line of its own: a percent-encoded line break in a path, or a request id of 6,000 characters."""

from hostile_values import FORGED_LOG_LINE


def test_no_secret_in_the_log(world, server):
    log = server.log_text()
    assert log, "the server log is empty or unreadable"
    leaked = []
    for secret in set(world.all_secrets()):
        for piece in {secret, secret.split("|")[-1], secret.split(".")[-1]}:
            if len(piece) >= 16 and piece in log:
                leaked.append(piece[:12] + "…")
    assert not leaked, f"secrets in the server log: {leaked}"


def test_no_client_wrote_the_log(server):
    log = server.log_text()
    assert log, "the server log is empty or unreadable"
    forged = [line for line in log.splitlines() if line.startswith(FORGED_LOG_LINE)]
    assert not forged, f"a client started a log line: {forged[:3]}"
    assert "r" * 129 not in log, "an X-Request-Id over 128 characters reached the log"
    assert "A" * 513 not in log, "a path over 512 bytes reached the log whole"
