"""No secret the suite handled (access and refresh tokens, the admin API key) appears in the server's log."""


def test_no_secret_in_the_log(world, server):
    log = server.log_text()
    assert log, "the server log is empty or unreadable"
    leaked = []
    for secret in set(world.all_secrets()):
        for piece in {secret, secret.split("|")[-1], secret.split(".")[-1]}:
            if len(piece) >= 16 and piece in log:
                leaked.append(piece[:12] + "…")
    assert not leaked, f"secrets in the server log: {leaked}"
