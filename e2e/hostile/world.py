"""The state the attacks start from, built through the API the way the mobile apps build it.

Account A (the attacker's own account) signs up with a passkey (seed 000), registers a device key (seed 002) and
signs in with it, grants health consent, connects HealthKit, syncs a few samples, creates a fitness challenge and
has a confirmation waiting. Account B (the bystander) signs up the same way and registers a device; the bystander
probe reads and writes as B throughout. Only the admin API key comes from the CLI (`hale admin-keys create`): no
route makes one."""

import base64
import datetime
import email
import email.policy
import hashlib
import json
import os
import re
import secrets
import subprocess
import time
from dataclasses import dataclass, field

from device_key import DeviceKey
from software_passkey import SoftwarePasskey

CONSENTED = ["steps", "distance", "calories", "active_minutes"]


def today():
    return datetime.datetime.now(datetime.timezone.utc).date()


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Actor:
    name: str
    account_id: str
    token: str  # the passkey sign-up session's access token
    refresh_token: str
    passkey: SoftwarePasskey
    passkey_id: str = ""
    device_key: DeviceKey = None
    device_id: str = ""
    fingerprint: str = ""
    device_token: str = ""  # an access token of a session signed in with the device key
    secrets_seen: list = field(default_factory=list)


class World:
    def __init__(self, server):
        self.server = server
        self.rp_origin = server.url.replace("127.0.0.1", "localhost")
        self.a = self.sign_up("A")
        self.b = self.sign_up("B")
        for actor in (self.a, self.b):
            self.register_device(actor)
        self.sign_in_with_device(self.a)
        self.grant_consent(self.a)
        self.grant_consent(self.b)
        self.connect(self.a)
        self.sync_valid_samples(self.a)
        self.challenge_id = self.create_challenge(self.a)
        self.confirmation_id = self.create_confirmation(self.a)

    # Seed 000: passkey-first sign-up.
    def sign_up(self, name, display_name=None):
        passkey = SoftwarePasskey("localhost", self.rp_origin)
        device = {"platform": "ios", "osVersion": "18.1", "deviceName": f"Hostile {name}"}
        options = self.server.expect(
            "POST", "/api/mobile/biometric/register/options", body={"displayName": display_name or f"Hostile {name}"}
        )["options"]
        registered = self.server.expect(
            "POST",
            "/api/mobile/biometric/register/verify",
            body={"credential": passkey.register(options), "deviceInfo": device},
        )
        actor = Actor(name, registered["accountId"], registered["token"], registered["refreshToken"], passkey)
        actor.passkey_id = registered["passkey"]["id"]
        actor.secrets_seen += [registered["token"], registered["refreshToken"]]
        return actor

    def sign_in_with_passkey(self, actor):
        """A new session for `actor`: (access token, refresh token)."""
        started = self.server.expect("POST", "/api/mobile/biometric/authenticate/options", body={})
        signed_in = self.server.expect(
            "POST",
            "/api/mobile/biometric/authenticate/verify",
            body={"credential": actor.passkey.assert_(started["options"]), "uid": started["uid"]},
        )
        actor.secrets_seen += [signed_in["token"], signed_in["refreshToken"]]
        return signed_in["token"], signed_in["refreshToken"]

    # Seed 002: device keys.
    def register_device(self, actor, name=None):
        key = DeviceKey()
        fingerprint = "hostile-" + secrets.token_hex(8)
        challenge = self.server.expect(
            "POST",
            "/api/v1/devices/register/challenge",
            actor.token,
            {
                "deviceName": name or f"{actor.name}'s phone",
                "deviceType": "mobile",
                "deviceFingerprint": fingerprint,
                "publicKey": key.public_key_pem,
                "keyAlgorithm": "ES256",
            },
        )
        verified = self.server.expect(
            "POST",
            "/api/v1/devices/register/verify",
            actor.token,
            {"sessionId": challenge["sessionId"], "signedChallenge": key.sign(challenge["challenge"])},
        )
        if not actor.device_id:
            actor.device_key, actor.device_id, actor.fingerprint = key, verified["deviceId"], fingerprint
        return verified["deviceId"], key, fingerprint

    def sign_in_with_device(self, actor):
        challenge = self.server.expect(
            "POST", "/api/v1/auth/biometric/challenge", body={"deviceFingerprint": actor.fingerprint}
        )
        signed_in = self.server.expect(
            "POST",
            "/api/v1/auth/biometric/verify",
            body={"sessionId": challenge["sessionId"], "signedChallenge": actor.device_key.sign(challenge["challenge"])},
        )
        tokens = signed_in["tokens"]
        actor.device_token = tokens["accessToken"]
        actor.secrets_seen += [tokens["accessToken"], tokens["refreshToken"]]
        return tokens

    # Seed 004: consent, connection, samples.
    def grant_consent(self, actor, token=None):
        self.server.expect(
            "POST", "/api/v1/health/consent", token or actor.token, {"platform": "apple", "permissions": CONSENTED}
        )

    def connect(self, actor, token=None):
        self.server.expect(
            "POST",
            "/api/v1/health/connections",
            token or actor.token,
            {"provider": "healthkit", "permissions": CONSENTED},
        )

    def valid_samples(self, count=3):
        now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        samples = []
        for index in range(count):
            start = now - datetime.timedelta(hours=index + 1)
            samples.append(
                {
                    "id": f"hostile-{secrets.token_hex(6)}",
                    "type": "steps",
                    "value": 500 + index,
                    "unit": "count",
                    "startDate": iso(start),
                    "endDate": iso(start + datetime.timedelta(minutes=10)),
                    "timeZoneOffset": "+00:00",
                    "sourceBundle": "com.apple.health",
                    "deviceModel": "iPhone",
                    "deviceType": "phone",
                    "userEntered": False,
                }
            )
        return samples

    def sync_valid_samples(self, actor):
        self.server.expect(
            "POST",
            "/api/v1/health/sync",
            actor.token,
            {"provider": "healthkit", "syncType": "manual", "samples": self.valid_samples()},
        )

    def create_challenge(self, actor):
        day = today()
        created = self.server.expect(
            "POST",
            "/api/v1/challenges",
            actor.token,
            {
                "name": "Hostile walk",
                "type": "steps",
                "goal": 10000,
                "startDate": (day - datetime.timedelta(days=3)).isoformat(),
                "endDate": (day + datetime.timedelta(days=3)).isoformat(),
                "visibility": "public",
            },
        )
        return created["challenge"]["id"]

    # Seed 002's confirmation requests, asked by the app's backend with the admin key.
    def create_confirmation(self, actor):
        if not self.server.admin_key:
            return "00000000-0000-4000-8000-000000000000"
        created = self.server.expect(
            "POST",
            "/api/v1/admin/confirmations",
            self.server.admin_key,
            {"accountId": actor.account_id, "actionType": "payment.approve", "actionPayload": {"amount": 10}},
        )
        return created["confirmation"]["id"]

    def confirmation_signature(self, actor, confirmation, decision):
        """The device key's signature over the confirmation message (docs/api/confirmations.md)."""
        message = "\n".join(
            ["hale-confirmation-v1", confirmation["id"], confirmation["actionType"], decision, confirmation["actionPayload"]]
        )
        digest = base64.urlsafe_b64encode(hashlib.sha256(message.encode()).digest()).rstrip(b"=").decode()
        return actor.device_key.sign(digest)

    # Email: codes read from the mail Hale writes as files (HALE_HOSTILE_MAILDIR).
    def mailed_code(self, address, timeout=20):
        """The newest code mailed to `address` that the suite has not used yet."""
        used = self.__dict__.setdefault("_used_codes", set())
        deadline = time.time() + timeout
        while time.time() < deadline:
            found = []
            directory = os.environ["HALE_HOSTILE_MAILDIR"]
            for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
                if not name.endswith(".eml"):
                    continue
                with open(os.path.join(directory, name), "rb") as file:
                    message = email.message_from_binary_file(file, policy=email.policy.default)
                match = re.match(r"(\d{6}) is your ", str(message["Subject"]))
                if match and address in str(message["To"]) and (address, match.group(1)) not in used:
                    found.append(match.group(1))
            if found:
                used.add((address, found[-1]))
                return found[-1]
            time.sleep(0.2)
        raise AssertionError(f"no new code reached {address}")

    def fresh_token(self, actor):
        """An access token of a session that signed in just now: fresh enough to change how the account is reached."""
        token, _ = self.sign_in_with_passkey(actor)
        return token

    def verified_address(self, actor, token=None):
        """A new address, verified for `actor`."""
        token = token or self.fresh_token(actor)
        address = f"hostile-{secrets.token_hex(6)}@example.com"
        self.server.expect("POST", "/api/v1/account/emails", token, {"email": address}, status=202)
        code = self.mailed_code(address)
        self.server.expect("POST", "/api/v1/account/emails/verify", token, {"email": address, "code": code})
        return address

    def address_of(self, actor):
        """The one verified address the suite keeps for `actor`, made once."""
        known = self.__dict__.setdefault("_addresses", {})
        if actor.name not in known:
            known[actor.name] = self.verified_address(actor)
        return known[actor.name]

    def email_only_session(self):
        """A session of an account with nothing but a verified address (made by an operator, its address added with
        its own token), signed in by email code: (access token, address)."""
        token = self.operator_token()
        address = self.verified_address(None, token=token)
        self.server.expect("POST", "/api/v1/auth/email/code", body={"email": address}, status=202)
        signed_in = self.server.expect(
            "POST", "/api/v1/auth/email/sign-in", body={"email": address, "code": self.mailed_code(address)})
        return signed_in["tokens"]["accessToken"], address

    def sacrificial(self, name="C"):
        """A fresh account for the operations that destroy what they touch (logout, delete, revoke)."""
        return self.sign_up(name)

    def operator_token(self):
        """A personal access token of a fresh account, made as an operator makes one: no route issues them, but a
        person may list and revoke theirs."""
        self._operator_accounts = getattr(self, "_operator_accounts", 0) + 1
        output = subprocess.run(
            [os.environ["HALE_HOSTILE_BINARY"], "accounts", "create", "--email",
             f"operator-{self._operator_accounts}@example.com"],
            check=True, capture_output=True, text=True).stdout
        return json.loads(output)["token"]

    def all_secrets(self):
        found = list(self.a.secrets_seen + self.b.secrets_seen)
        if self.server.admin_key:
            found.append(self.server.admin_key)
        return found
