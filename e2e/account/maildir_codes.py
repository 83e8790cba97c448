"""The codes Hale mailed, read from the real SMTP server's maildir (HALE_MAILDIR, set by run.sh when aiosmtpd is
there): each message one .eml file, written whole."""

import email
import email.policy
import os
import re
import time

MAILDIR = os.environ.get("HALE_MAILDIR", "")


def messages_to(address):
    """The messages to `address`, oldest first, as (number, message)."""
    found = []
    for name in os.listdir(MAILDIR):
        if not name.endswith(".eml"):
            continue
        with open(os.path.join(MAILDIR, name), "rb") as file:
            message = email.message_from_binary_file(file, policy=email.policy.default)
        if address in str(message["To"]):
            found.append((int(name.split(".")[0]), message))
    return sorted(found, key=lambda item: item[0])


def wait_for_code(address, after=0, timeout=30):
    """The code in the first message to `address` numbered above `after`, and that message's number."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for number, message in messages_to(address):
            match = re.match(r"(\d{6}) is your ", str(message["Subject"]))
            if number > after and match:
                text = message.get_body(preferencelist=("plain",)).get_content()
                assert match.group(1) in text, "the text part says the code the subject does"
                return match.group(1), number
        time.sleep(0.25)
    raise AssertionError(f"no code reached {address} within {timeout} s")
