#!/usr/bin/env python3
"""A real SMTP server for Hale's mail tests, built on aiosmtpd.

Prints "PORT <n>" as the first line of stdout once it is listening, writes each
received message to MAILDIR/<n>.eml (atomically: temp file, then rename), and
exits cleanly on SIGTERM or SIGINT.

    smtp-test-server.py --port 0 --maildir DIR [--cert C --key K [--implicit-tls]]
                        [--user U --password P [--auth-mechanisms LOGIN,PLAIN]]
                        [--transcript FILE]
"""

import argparse
import asyncio
import itertools
import os
import signal
import ssl
import sys
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class MaildirHandler:
    """Stores every accepted message as <n>.eml in a directory."""

    def __init__(self, maildir):
        self.maildir = maildir
        self.counter = itertools.count(1)

    async def handle_DATA(self, server, session, envelope):
        number = next(self.counter)
        temporary = os.path.join(self.maildir, f".{number}.eml.tmp")
        final = os.path.join(self.maildir, f"{number}.eml")
        with open(temporary, "wb") as file:
            file.write(envelope.original_content or envelope.content)
            file.flush()
            os.fsync(file.fileno())
        os.rename(temporary, final)
        return "250 2.0.0 Message accepted for delivery"


class PasswordAuthenticator:
    """Accepts exactly one username/password pair."""

    def __init__(self, user, password):
        self.user = user.encode()
        self.password = password.encode()

    def __call__(self, server, session, envelope, mechanism, auth_data):
        if not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        accepted = auth_data.login == self.user and auth_data.password == self.password
        # handled=False makes aiosmtpd send its own 535 reply on failure.
        return AuthResult(success=accepted, handled=False)


class TranscriptSMTP(SMTP):
    """An SMTP server that also appends every plaintext byte it receives to a file.

    After STARTTLS the bytes arriving here are the decrypted ones, so the transcript
    shows what the client said, and whether it said anything before TLS was up.
    """

    transcript_path = None

    def data_received(self, data):
        if self.transcript_path:
            with open(self.transcript_path, "ab") as file:
                file.write(data)
        super().data_received(data)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--cert", help="PEM certificate chain; enables STARTTLS (required before MAIL)")
    parser.add_argument("--key", help="PEM private key for --cert")
    parser.add_argument("--implicit-tls", action="store_true", help="TLS from the first byte (port 465 style)")
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--auth-mechanisms", default="LOGIN,PLAIN", help="comma-separated AUTH mechanisms offered")
    parser.add_argument("--transcript", help="append every received plaintext byte to this file")
    arguments = parser.parse_args()
    if bool(arguments.cert) != bool(arguments.key):
        parser.error("--cert and --key go together")
    if arguments.implicit_tls and not arguments.cert:
        parser.error("--implicit-tls needs --cert and --key")
    if bool(arguments.user) != bool(arguments.password):
        parser.error("--user and --password go together")
    return arguments


def make_tls_context(arguments):
    if not arguments.cert:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(arguments.cert, arguments.key)
    return context


def make_protocol_factory(arguments, tls_context):
    handler = MaildirHandler(arguments.maildir)
    options = {"hostname": "hale-test-smtp", "timeout": 30}
    if tls_context and not arguments.implicit_tls:
        options.update(tls_context=tls_context, require_starttls=True)
    if arguments.user:
        offered = {mechanism.strip().upper() for mechanism in arguments.auth_mechanisms.split(",")}
        options.update(
            authenticator=PasswordAuthenticator(arguments.user, arguments.password),
            auth_required=True,
            # aiosmtpd only counts STARTTLS as TLS; with implicit TLS the whole connection already is.
            auth_require_tls=not arguments.implicit_tls,
            auth_exclude_mechanism={"LOGIN", "PLAIN"} - offered,
        )
    TranscriptSMTP.transcript_path = arguments.transcript
    return lambda: TranscriptSMTP(handler, **options)


async def serve(arguments):
    tls_context = make_tls_context(arguments)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        make_protocol_factory(arguments, tls_context),
        host=arguments.host,
        port=arguments.port,
        ssl=tls_context if arguments.implicit_tls else None,
    )
    stop = asyncio.Event()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signal_number, stop.set)
    port = server.sockets[0].getsockname()[1]
    print(f"PORT {port}", flush=True)
    await stop.wait()
    server.close()
    try:
        # Newer Pythons wait here for open connections too; a test server should not linger for them.
        await asyncio.wait_for(server.wait_closed(), timeout=2)
    except asyncio.TimeoutError:
        pass


def main():
    arguments = parse_arguments()
    # A parent such as a Swift test runner may spawn us with SIGTERM blocked; unblock it so SIGTERM still stops us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    os.makedirs(arguments.maildir, exist_ok=True)
    # aiosmtpd warns when AUTH is required without STARTTLS, which is exactly the implicit TLS case.
    warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
    asyncio.run(serve(arguments))
    return 0


if __name__ == "__main__":
    sys.exit(main())
