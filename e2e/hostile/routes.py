"""A valid request for every operation in the OpenAPI document, built from the world's state.

Each attack starts from one of these and changes one thing. `TEMPLATES` is keyed by operationId; the coverage test
fails when /openapi.json has an operation without a template, so a new route cannot be added untested.
`baseline` lists the statuses the unmodified request must get: the attacks are only meaningful if it works."""

import base64
import datetime
import json
import os
import urllib.parse
from dataclasses import dataclass, field

import hale_http
from hale_http import Request
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from device_key import DeviceKey
from world import CONSENTED, today


@dataclass
class Template:
    operation: str
    method: str
    path: str  # as in the OpenAPI document, with {parameters}
    params: dict = field(default_factory=dict)
    query: dict = field(default_factory=dict)
    token: str = None
    body: object = None  # a JSON value, or None for no body
    headers: list = field(default_factory=list)
    baseline: tuple = (200,)
    content_type: str = "application/json"
    raw: bytes = None  # a body that is not JSON (an uploaded file), sent as it is
    # Fields the valid request leaves out but the attacks add one at a time (a batchId in the valid sync would make
    # every later variant a replay of the first, and nothing would be stored).
    extra_fields: dict = field(default_factory=dict)
    destructive: bool = False  # True: the baseline destroys what it touches, so it runs on a sacrificial account

    def request(self, params=None, query=None, body=..., raw_body=None, headers=None, label=""):
        """The request with any of its parts replaced; `raw_body` bytes win over `body`."""
        path = self.path
        for name, value in (params if params is not None else self.params).items():
            path = path.replace("{" + name + "}", value)
        query = self.query if query is None else query
        if query:
            path += "?" + "&".join(f"{k}={v}" if v is not None else k for k, v in _pairs(query))
        all_headers = list(self.headers if headers is None else headers)
        if self.token and not any(n.lower() == "authorization" for n, _ in all_headers):
            all_headers.append(("Authorization", f"Bearer {self.token}"))
        if raw_body is None and body is ... and self.raw is not None:
            raw_body = self.raw
        body = self.body if body is ... else body
        data = raw_body if raw_body is not None else (hale_http.json_body(body) if body is not None else b"")
        if (body is not None or raw_body is not None) and self.content_type:
            if not any(n.lower() == "content-type" for n, _ in all_headers):
                all_headers.append(("Content-Type", self.content_type))
        return Request(self.method, path, all_headers, data, label or "baseline")


def export_xml():
    """A small Apple Health export: two step records yesterday, as the Health app writes them."""
    day = (today() - datetime.timedelta(days=1)).isoformat()
    records = "".join(
        f' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" '
        f'startDate="{day} {hour:02d}:00:00 -0500" endDate="{day} {hour:02d}:10:00 -0500" value="{100 * hour}"/>\n'
        for hour in (9, 10))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
            f' <ExportDate value="{day} 12:00:00 -0500"/>\n{records}</HealthData>\n').encode()


def upload_export_request(token):
    return Request("POST", "/api/v1/health/imports", [("Authorization", f"Bearer {token}"),
                                                       ("Content-Type", "application/xml")], export_xml(), "setup")


def _pairs(query):
    for key, value in query.items():
        if isinstance(value, list):
            for item in value:
                yield key, item
        else:
            yield key, value


def _days(delta):
    return (today() + datetime.timedelta(days=delta)).isoformat()


def _p256_spki_base64():
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(der).decode()


def _fresh_device_challenge(world, token):
    key = DeviceKey()
    return world.server.expect(
        "POST",
        "/api/v1/devices/register/challenge",
        token,
        {
            "deviceName": "Hostile spare",
            "deviceType": "mobile",
            "deviceFingerprint": "hostile-spare-" + base64.b16encode(os.urandom(6)).decode(),
            "publicKey": key.public_key_pem,
            "keyAlgorithm": "ES256",
        },
    ), key


def templates(world):
    """operationId -> a function making that operation's valid Template (called when its test runs)."""
    a, server = world.a, world.server
    T = Template

    def refresh_tokens():
        _, refresh = world.sign_in_with_passkey(a)
        return T("refreshTokens", "POST", "/api/v1/auth/refresh", body={"refreshToken": refresh})

    def device_refresh():
        _, refresh = world.sign_in_with_passkey(a)
        return T("deviceRefresh", "POST", "/api/v1/auth/biometric/refresh", body={"refreshToken": refresh})

    def redeem_handoff():
        code = server.expect("POST", "/api/v1/auth/handoff", a.token, status=201)["code"]
        return T("redeemHandoffCode", "POST", "/api/v1/auth/handoff/redeem", body={"code": code})

    def logout():
        token, _ = world.sign_in_with_passkey(a)
        return T("logout", "POST", "/api/v1/auth/logout", token=token, destructive=True)

    def logout_everywhere():
        victim = world.sacrificial()
        return T("logoutEverywhere", "POST", "/api/v1/auth/logout-all", token=victim.token, destructive=True)

    def delete_account():
        victim = world.sacrificial()
        return T("deleteAccount", "DELETE", "/api/v1/account", token=victim.token, destructive=True)

    def step_up():
        started = server.expect("POST", "/api/v1/auth/step-up/options", a.token, {})
        body = {"ceremony": started["ceremony"], "credential": a.passkey.assert_(started["options"])}
        return T("stepUp", "POST", "/api/v1/auth/step-up", token=a.token, body=body)

    def recover_with_code():
        code = server.expect("POST", "/api/v1/account/recovery-codes", a.token, status=201)["codes"][0]
        return T("recoverWithCode", "POST", "/api/v1/auth/recovery", body={"code": code})

    # Email, recovery and step-up (issue 31): codes are read from the mail Hale writes as files.
    def request_email_code():
        return T("requestEmailCode", "POST", "/api/v1/account/emails", token=world.fresh_token(a),
                 body={"email": f"hostile-{os.urandom(4).hex()}@example.com"}, baseline=(202,))

    def verify_email_address():
        token = world.fresh_token(a)
        address = f"hostile-{os.urandom(4).hex()}@example.com"
        server.expect("POST", "/api/v1/account/emails", token, {"email": address}, status=202)
        return T("verifyEmailAddress", "POST", "/api/v1/account/emails/verify", token=token,
                 body={"email": address, "code": world.mailed_code(address)})

    def remove_email_address():
        token = world.fresh_token(a)
        address = world.verified_address(a, token)
        return T("removeEmailAddress", "DELETE", "/api/v1/account/emails/{email}", params={"email": address},
                 token=token, baseline=(204,), destructive=True)

    def verify_recovery_email_code():
        address = world.address_of(a)
        server.expect("POST", "/api/v1/auth/recovery/email", body={"email": address}, status=202)
        return T("verifyRecoveryEmailCode", "POST", "/api/v1/auth/recovery/email/verify",
                 body={"email": address, "code": world.mailed_code(address)}, baseline=(202,))

    def waiting_recovery():
        return server.expect("POST", "/api/v1/auth/recovery/device", body={"email": world.address_of(a)}, status=202)

    def approve_recovery():
        waiting = waiting_recovery()
        return T("approveRecovery", "POST", "/api/v1/account/recoveries/{recoveryId}/approve",
                 params={"recoveryId": waiting["recoveryId"]}, token=world.fresh_token(a),
                 body={"pairingCode": waiting["pairingCode"]}, baseline=(204,))

    def cancel_recovery():
        waiting = waiting_recovery()
        return T("cancelRecovery", "POST", "/api/v1/account/recoveries/{recoveryId}/cancel",
                 params={"recoveryId": waiting["recoveryId"]}, token=a.token, baseline=(204,))

    def claim_recovery():
        waiting = waiting_recovery()
        server.expect("POST", f"/api/v1/account/recoveries/{waiting['recoveryId']}/approve", world.fresh_token(a),
                      {"pairingCode": waiting["pairingCode"]}, status=204)
        return T("claimRecovery", "POST", "/api/v1/auth/recovery/claim",
                 body={"recoveryId": waiting["recoveryId"], "claimToken": waiting["claimToken"]})

    def sign_in_with_email_code():
        address = world.address_of(a)
        server.expect("POST", "/api/v1/auth/email/code", body={"email": address}, status=202)
        return T("signInWithEmailCode", "POST", "/api/v1/auth/email/sign-in",
                 body={"email": address, "code": world.mailed_code(address)})

    def request_step_up_email_code():
        token, address = world.email_only_session()
        return T("requestStepUpEmailCode", "POST", "/api/v1/auth/step-up/email/code", token=token,
                 body={"email": address}, baseline=(202,))

    def step_up_with_email_code():
        token, address = world.email_only_session()
        server.expect("POST", "/api/v1/auth/step-up/email/code", token, {"email": address}, status=202)
        return T("stepUpWithEmailCode", "POST", "/api/v1/auth/step-up/email", token=token,
                 body={"email": address, "code": world.mailed_code(address)})

    def step_up_with_device_key():
        issued = server.expect("POST", "/api/v1/auth/step-up/device/challenge", a.device_token, {})
        return T("stepUpWithDeviceKey", "POST", "/api/v1/auth/step-up/device", token=a.device_token,
                 body={"challenge": issued["challenge"], "signedChallenge": a.device_key.sign(issued["challenge"])})

    def revoke_personal_access_token():
        token = world.operator_token()
        return T("revokePersonalAccessToken", "DELETE", "/api/v1/account/tokens/{tokenId}",
                 params={"tokenId": token.split("|")[0]}, token=token, destructive=True)

    def register_verify():
        from software_passkey import SoftwarePasskey

        passkey = SoftwarePasskey("localhost", world.rp_origin)
        options = server.expect(
            "POST", "/api/mobile/biometric/register/options", a.token, {"platform": "ios", "deviceName": "Spare"}
        )["options"]
        body = {
            "credential": passkey.register(options),
            "deviceInfo": {"platform": "ios", "osVersion": "18.1", "deviceName": "Spare"},
        }
        return T("passkeyRegister", "POST", "/api/mobile/biometric/register/verify", token=a.token, body=body)

    def authenticate_verify():
        started = server.expect("POST", "/api/mobile/biometric/authenticate/options", body={})
        body = {"credential": a.passkey.assert_(started["options"]), "uid": started["uid"], "rememberMe": False}
        return T("passkeyAuthenticate", "POST", "/api/mobile/biometric/authenticate/verify", body=body)

    def delete_passkey():
        victim = world.sacrificial()
        return T(
            "deletePasskey",
            "DELETE",
            "/api/mobile/biometric/passkeys/{passkeyID}",
            params={"passkeyID": victim.passkey_id},
            query={"confirm": "true"},
            token=victim.token,
            destructive=True,
        )

    def device_registration_challenge():
        key = DeviceKey()
        body = {
            "deviceName": "Hostile tablet",
            "deviceType": "tablet",
            "deviceFingerprint": "hostile-tablet",
            "publicKey": key.public_key_pem,
            "keyAlgorithm": "ES256",
        }
        return T("deviceRegistrationChallenge", "POST", "/api/v1/devices/register/challenge", token=a.token, body=body)

    def device_registration_verify():
        challenge, key = _fresh_device_challenge(world, a.token)
        body = {"sessionId": challenge["sessionId"], "signedChallenge": key.sign(challenge["challenge"])}
        return T("deviceRegistrationVerify", "POST", "/api/v1/devices/register/verify", token=a.token, body=body)

    def device_sign_in():
        challenge = server.expect("POST", "/api/v1/auth/biometric/challenge", body={"deviceFingerprint": a.fingerprint})
        body = {
            "sessionId": challenge["sessionId"],
            "signedChallenge": a.device_key.sign(challenge["challenge"]),
            "rememberMe": True,
        }
        return T("deviceSignIn", "POST", "/api/v1/auth/biometric/verify", body=body)

    def spare_device(operation, method, path, body=None):
        victim = world.sacrificial()
        device_id, _, _ = world.register_device(victim, "Spare")
        return T(operation, method, path, params={"deviceId": device_id}, token=victim.token, body=body,
                 destructive=True)

    def answer_confirmation():
        confirmation_id = world.create_confirmation(a)
        confirmation = server.expect("GET", f"/api/v1/confirmations/{confirmation_id}", a.device_token)
        body = {
            "decision": "approve",
            "signature": world.confirmation_signature(a, confirmation["confirmation"], "approve"),
            "deviceId": a.device_id,
        }
        return T(
            "answerConfirmation",
            "POST",
            "/api/v1/confirmations/{confirmationID}/answer",
            params={"confirmationID": confirmation_id},
            token=a.device_token,
            body=body,
        )

    def submit_health():
        nonce = server.expect("GET", "/health/attestation-nonce", a.token)["nonce"]
        body = {
            "nonce": nonce,
            "attestationToken": base64.b64encode(b"not an App Attest assertion").decode(),
            "platform": "ios",
            "steps": 8500,
            "duration": 3600,
            "calories": 350.5,
            "distance": 5200.75,
            "source": "ios_health",
            "date": today().isoformat(),
        }
        # No software App Attest assertion is made here: the field checks run before the attestation's, and the
        # development-attestation route itself is attacked below. 401 is the documented refusal.
        return T("submitHealthData", "POST", "/health", token=a.token, body=body,
                 headers=[("X-Timezone", "Europe/Berlin")], baseline=(401,))

    def register_app_attest_key():
        nonce = server.expect("GET", "/health/attestation-nonce", a.token)["nonce"]
        body = {"keyId": base64.b64encode(b"k" * 32).decode(), "attestation": base64.b64encode(b"\xa0").decode(),
                "nonce": nonce}
        return T("registerAppAttestKey", "POST", "/health/attestation-keys", token=a.token, body=body,
                 baseline=(400, 401))

    def revoke_consent(operation, path, params):
        victim = world.sacrificial()
        world.grant_consent(victim)
        return T(operation, "DELETE", path, params=params, token=victim.token, destructive=True)

    def upload_export():
        victim = world.sacrificial()
        world.grant_consent(victim)
        return T("uploadAppleHealthExport", "POST", "/api/v1/health/imports", token=victim.token,
                 raw=export_xml(), content_type="application/xml", headers=[("X-Timezone", "America/New_York")],
                 baseline=(202,))

    def show_import():
        victim = world.sacrificial()
        world.grant_consent(victim)
        created = world.server.send(upload_export_request(victim.token))
        assert created.status == 202, f"setting up an import: {created.status} {created.body[:200]!r}"
        import_id = json.loads(created.body)["import"]["id"]
        return T("showHealthImport", "GET", "/api/v1/health/imports/{id}", params={"id": import_id},
                 token=victim.token)

    def disconnect():
        victim = world.sacrificial()
        world.connect(victim)
        return T("disconnectHealthProvider", "DELETE", "/api/v1/health/connections/{provider}",
                 params={"provider": "healthkit"}, token=victim.token, destructive=True)

    def supabase_headers(prefer):
        return [("apikey", os.environ["HALE_SUPABASE_PUBLISHABLE_KEYS"]), ("Prefer", prefer)]

    def supabase_disconnect():
        victim = world.sacrificial()
        world.connect(victim)
        return T("updateSupabaseRows", "PATCH", "/rest/v1/{table}", params={"table": "health_connections"},
                 query={"provider": "eq.healthkit"}, token=victim.token, body={"is_active": False},
                 headers=supabase_headers("return=representation"), destructive=True)

    def delete_health_data():
        victim = world.sacrificial()
        world.grant_consent(victim)
        world.sync_valid_samples(victim)
        return T("deleteHealthData", "DELETE", "/api/v1/health/data", token=victim.token, destructive=True)

    def leave_challenge():
        member = world.sacrificial()
        server.expect("POST", f"/api/v1/challenges/{world.challenge_id}/join", member.token)
        return T("leaveFitnessChallenge", "POST", "/api/v1/challenges/{challengeID}/leave",
                 params={"challengeID": world.challenge_id}, token=member.token, destructive=True)

    def sync_body():
        return {
            "provider": "healthkit",
            "syncType": "manual",
            "lookbackDays": 7,
            "samples": world.valid_samples(1),
            "deletions": ["hostile-never-synced"],
        }

    challenge = {"challengeID": world.challenge_id}
    admin = server.admin_key

    # Webhook endpoints (issue 33) post to the discard port: each delivery fails at once and is retried later.
    hook = {"url": "http://127.0.0.1:9/hostile", "eventTypes": ["account.created", "session.created"]}

    def webhook_endpoint():
        return server.expect("POST", "/api/v1/admin/webhooks/endpoints", admin, hook, status=201)["endpoint"]["id"]

    def webhook_delivery():
        endpoint = webhook_endpoint()
        server.expect("POST", f"/api/v1/admin/webhooks/endpoints/{endpoint}/test", admin, status=202)
        return str(server.expect("GET", f"/api/v1/admin/webhooks/deliveries?endpointId={endpoint}", admin)
                   ["deliveries"][0]["id"])

    return {
        "health": lambda: T("health", "GET", "/healthz"),
        "readiness": lambda: T("readiness", "GET", "/readyz"),
        "metrics": lambda: T("metrics", "GET", "/metrics"),
        "jwks": lambda: T("jwks", "GET", "/.well-known/jwks.json"),
        "openapi": lambda: T("openapi", "GET", "/openapi.json"),
        "openidConfiguration": lambda: T("openidConfiguration", "GET", "/.well-known/openid-configuration"),
        "introspectToken": lambda: T(
            "introspectToken", "POST", "/api/v1/admin/introspect", token=admin,
            raw=("token=" + urllib.parse.quote(a.token, safe="")).encode(),
            content_type="application/x-www-form-urlencoded"),
        "getAccount": lambda: T("getAccount", "GET", "/api/v1/account", token=a.token),
        "exportAccount": lambda: T("exportAccount", "GET", "/api/v1/account/export", token=a.token),
        "listPersonalAccessTokens": lambda: T(
            "listPersonalAccessTokens", "GET", "/api/v1/account/tokens", query={"limit": "20"}, token=a.token),
        "revokePersonalAccessToken": revoke_personal_access_token,
        "deleteAccount": delete_account,
        "refreshTokens": refresh_tokens,
        "logout": logout,
        "logoutEverywhere": logout_everywhere,
        "issueHandoffCode": lambda: T("issueHandoffCode", "POST", "/api/v1/auth/handoff", token=a.token,
                                      baseline=(201,)),
        "redeemHandoffCode": redeem_handoff,
        "stepUpOptions": lambda: T("stepUpOptions", "POST", "/api/v1/auth/step-up/options", token=a.token, body={}),
        "stepUp": step_up,
        "recoveryCodesRemaining": lambda: T(
            "recoveryCodesRemaining", "GET", "/api/v1/account/recovery-codes", token=a.token),
        "createRecoveryCodes": lambda: T(
            "createRecoveryCodes", "POST", "/api/v1/account/recovery-codes", token=a.token, baseline=(201,)),
        "recoverWithCode": recover_with_code,
        "listEmailAddresses": lambda: T("listEmailAddresses", "GET", "/api/v1/account/emails", token=a.token),
        "requestEmailCode": request_email_code,
        "verifyEmailAddress": verify_email_address,
        "removeEmailAddress": remove_email_address,
        "requestRecoveryEmailCode": lambda: T(
            "requestRecoveryEmailCode", "POST", "/api/v1/auth/recovery/email",
            body={"email": f"hostile-{os.urandom(4).hex()}@example.com"}, baseline=(202,)),
        "verifyRecoveryEmailCode": verify_recovery_email_code,
        "requestRecoveryApproval": lambda: T(
            "requestRecoveryApproval", "POST", "/api/v1/auth/recovery/device",
            body={"email": f"hostile-{os.urandom(4).hex()}@example.com"}, baseline=(202,)),
        "claimRecovery": claim_recovery,
        "listWaitingRecoveries": lambda: T("listWaitingRecoveries", "GET", "/api/v1/account/recoveries",
                                           token=a.token),
        "approveRecovery": approve_recovery,
        "cancelRecovery": cancel_recovery,
        "requestSignInEmailCode": lambda: T(
            "requestSignInEmailCode", "POST", "/api/v1/auth/email/code",
            body={"email": f"hostile-{os.urandom(4).hex()}@example.com"}, baseline=(202,)),
        "signInWithEmailCode": sign_in_with_email_code,
        "requestStepUpEmailCode": request_step_up_email_code,
        "stepUpWithEmailCode": step_up_with_email_code,
        "stepUpDeviceChallenge": lambda: T("stepUpDeviceChallenge", "POST", "/api/v1/auth/step-up/device/challenge",
                                           token=a.device_token, body={}),
        "stepUpWithDeviceKey": step_up_with_device_key,
        "appleAppSiteAssociation": lambda: T("appleAppSiteAssociation", "GET", "/.well-known/apple-app-site-association"),
        "assetLinks": lambda: T("assetLinks", "GET", "/.well-known/assetlinks.json"),
        "passkeyRegistrationOptions": lambda: T(
            "passkeyRegistrationOptions", "POST", "/api/mobile/biometric/register/options",
            body={"displayName": "Hostile sign-up", "email": "hostile@example.com", "platform": "android",
                  "osVersion": "15", "deviceName": "Pixel"}),
        "passkeyRegister": register_verify,
        "passkeyAuthenticationOptions": lambda: T(
            "passkeyAuthenticationOptions", "POST", "/api/mobile/biometric/authenticate/options",
            body={"email": "hostile@example.com"}),
        "passkeyAuthenticate": authenticate_verify,
        "passkeyDevices": lambda: T("passkeyDevices", "GET", "/api/mobile/biometric/devices", token=a.token),
        "listPasskeys": lambda: T("listPasskeys", "GET", "/api/mobile/biometric/passkeys", token=a.token),
        "renamePasskey": lambda: T("renamePasskey", "PATCH", "/api/mobile/biometric/passkeys/{passkeyID}",
                                   params={"passkeyID": a.passkey_id}, token=a.token, body={"name": "Hostile key"}),
        "deletePasskey": delete_passkey,
        "deviceRegistrationChallenge": device_registration_challenge,
        "deviceRegistrationVerify": device_registration_verify,
        "deviceSignInChallenge": lambda: T("deviceSignInChallenge", "POST", "/api/v1/auth/biometric/challenge",
                                           body={"deviceFingerprint": a.fingerprint}),
        "deviceSignIn": device_sign_in,
        "deviceRefresh": device_refresh,
        "listDevices": lambda: T("listDevices", "GET", "/api/v1/devices", token=a.token),
        "setDevicePushToken": lambda: T("setDevicePushToken", "PUT", "/api/v1/devices/push-token", token=a.token,
                                        body={"deviceId": a.device_id, "fcmToken": "hostile-fcm-token"}),
        "renameDevice": lambda: T("renameDevice", "PATCH", "/api/v1/devices/{deviceId}",
                                  params={"deviceId": a.device_id}, token=a.token, body={"deviceName": "A's phone"}),
        "deleteDevice": lambda: spare_device("deleteDevice", "DELETE", "/api/v1/devices/{deviceId}"),
        "deactivateDevice": lambda: spare_device("deactivateDevice", "POST", "/api/v1/devices/{deviceId}/deactivate"),
        "listAuditEvents": lambda: T("listAuditEvents", "GET", "/api/v1/audit", query={"limit": "50"}, token=a.token),
        "oauthLogin": lambda: T(
            "oauthLogin", "POST", "/api/v1/auth/oauth/login", content_type="application/vnd.api+json",
            body={"data": {"attributes": {"provider": "google", "oauthToken": "eyJhbGciOiJSUzI1NiJ9.e30.c2ln",
                                          "role": "client"},
                           "relationships": {"deviceTokens": {"data": {"attributes": {"token": "fcm-hostile"}}}}}},
            baseline=(401, 422)),
        "appleServerNotification": lambda: T(
            "appleServerNotification", "POST", "/api/v1/auth/oauth/apple/notifications",
            # 404 OAUTH_ERROR while Sign in with Apple is not configured, as in this suite's server.
            body={"payload": "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}, baseline=(401, 404, 422)),
        "healthAttestationNonce": lambda: T("healthAttestationNonce", "GET", "/health/attestation-nonce",
                                            token=a.token),
        "submitHealthData": submit_health,
        "registerAppAttestKey": register_app_attest_key,
        "issueDevelopmentAttestationCredential": lambda: T(
            "issueDevelopmentAttestationCredential", "POST", "/health/development-attestation", token=a.token,
            body={"publicKey": _p256_spki_base64()}, baseline=(201,)),
        "healthStatistics": lambda: T(
            "healthStatistics", "GET", "/health/statistics", token=a.token,
            query={"startDate": _days(-30), "endDate": _days(0), "period": "week"},
            headers=[("X-Timezone", "Europe/Berlin")]),
        "healthToday": lambda: T("healthToday", "GET", "/health/today", token=a.token,
                                 headers=[("X-Timezone", "Asia/Kolkata")]),
        "grantHealthConsentMobile": lambda: T("grantHealthConsentMobile", "POST", "/api/mobile/health/consent",
                                              token=a.token, body={"platform": "apple", "permissions": CONSENTED}),
        "getHealthConsentMobile": lambda: T("getHealthConsentMobile", "GET", "/api/mobile/health/consent",
                                            token=a.token),
        "revokeAllHealthConsentMobile": lambda: revoke_consent(
            "revokeAllHealthConsentMobile", "/api/mobile/health/consent", {}),
        "revokePlatformHealthConsentMobile": lambda: revoke_consent(
            "revokePlatformHealthConsentMobile", "/api/mobile/health/consent/{platform}", {"platform": "apple"}),
        "revokeHealthConsentMobile": lambda: revoke_consent(
            "revokeHealthConsentMobile", "/api/mobile/health/consent/{platform}/{permission}",
            {"platform": "apple", "permission": "steps"}),
        "grantHealthConsent": lambda: T("grantHealthConsent", "POST", "/api/v1/health/consent", token=a.token,
                                        body={"platform": "apple", "permissions": CONSENTED}),
        "getHealthConsent": lambda: T("getHealthConsent", "GET", "/api/v1/health/consent", token=a.token),
        "revokeAllHealthConsent": lambda: revoke_consent("revokeAllHealthConsent", "/api/v1/health/consent", {}),
        "revokePlatformHealthConsent": lambda: revoke_consent(
            "revokePlatformHealthConsent", "/api/v1/health/consent/{platform}", {"platform": "apple"}),
        "revokeHealthConsent": lambda: revoke_consent(
            "revokeHealthConsent", "/api/v1/health/consent/{platform}/{permission}",
            {"platform": "apple", "permission": "steps"}),
        "connectHealthProvider": lambda: T("connectHealthProvider", "POST", "/api/v1/health/connections",
                                           token=a.token, body={"provider": "healthkit", "permissions": CONSENTED},
                                           baseline=(201,)),
        "listHealthConnections": lambda: T("listHealthConnections", "GET", "/api/v1/health/connections",
                                           token=a.token),
        "disconnectHealthProvider": disconnect,
        "syncHealthSamples": lambda: T("syncHealthSamples", "POST", "/api/v1/health/sync", token=a.token,
                                       body=sync_body(), headers=[("X-Timezone", "America/New_York")],
                                       extra_fields={"batchId": "hostile-batch"}),
        "uploadAppleHealthExport": upload_export,
        "showHealthImport": show_import,
        "listHealthSyncLogs": lambda: T("listHealthSyncLogs", "GET", "/api/v1/health/sync-logs",
                                        query={"limit": "20"}, token=a.token),
        "syncDailyHealthTotals": lambda: T(
            "syncDailyHealthTotals", "POST", "/api/mobile/health/sync", token=a.token,
            body={"platform": "apple", "data": {"steps": 5234, "distance": 3210, "date": today().isoformat()}}),
        "exportHealthData": lambda: T("exportHealthData", "GET", "/api/v1/health/export", token=a.token),
        "getHealthProvenance": lambda: T(
            "getHealthProvenance", "GET", "/api/v1/health/provenance", token=a.token,
            query={"startDate": _days(-6), "endDate": _days(0)}),
        "getHealthFHIR": lambda: T(
            "getHealthFHIR", "GET", "/api/v1/health/fhir", token=a.token,
            query={"startDate": _days(-6), "endDate": _days(0)}),
        "getHealthOpenMHealth": lambda: T(
            "getHealthOpenMHealth", "GET", "/api/v1/health/openmhealth", token=a.token,
            query={"startDate": _days(-6), "endDate": _days(0)}),
        "getAccountHealthProvenance": lambda: T(
            "getAccountHealthProvenance", "GET", "/api/v1/admin/accounts/{accountID}/health/provenance", token=admin,
            params={"accountID": a.account_id},
            query={"startDate": _days(-6), "endDate": _days(0)}),
        "deleteHealthData": delete_health_data,
        "createWebhookEndpoint": lambda: T(
            "createWebhookEndpoint", "POST", "/api/v1/admin/webhooks/endpoints", token=admin,
            body={**hook, "description": "hostile"}, baseline=(201,)),
        "listWebhookEndpoints": lambda: T(
            "listWebhookEndpoints", "GET", "/api/v1/admin/webhooks/endpoints", token=admin),
        "deleteWebhookEndpoint": lambda: T(
            "deleteWebhookEndpoint", "DELETE", "/api/v1/admin/webhooks/endpoints/{endpointID}",
            params={"endpointID": webhook_endpoint()}, token=admin, destructive=True),
        "rotateWebhookSecret": lambda: T(
            "rotateWebhookSecret", "POST", "/api/v1/admin/webhooks/endpoints/{endpointID}/rotate-secret",
            params={"endpointID": webhook_endpoint()}, token=admin),
        "testWebhookEndpoint": lambda: T(
            "testWebhookEndpoint", "POST", "/api/v1/admin/webhooks/endpoints/{endpointID}/test",
            params={"endpointID": webhook_endpoint()}, token=admin, baseline=(202,)),
        "listWebhookDeliveries": lambda: T(
            "listWebhookDeliveries", "GET", "/api/v1/admin/webhooks/deliveries", token=admin,
            query={"status": "pending", "limit": "20"}),
        "replayWebhookDelivery": lambda: T(
            "replayWebhookDelivery", "POST", "/api/v1/admin/webhooks/deliveries/{deliveryID}/replay",
            params={"deliveryID": webhook_delivery()}, token=admin, baseline=(202, 404)),
        "createConfirmation": lambda: T(
            "createConfirmation", "POST", "/api/v1/admin/confirmations", token=admin,
            body={"accountId": a.account_id, "actionType": "payment.approve",
                  "actionPayload": {"amount": 12.5, "currency": "EUR"}, "expiresIn": 300}, baseline=(201,)),
        "getConfirmationAsAdmin": lambda: T(
            "getConfirmationAsAdmin", "GET", "/api/v1/admin/confirmations/{confirmationID}",
            params={"confirmationID": world.confirmation_id}, token=admin),
        "listPendingConfirmations": lambda: T("listPendingConfirmations", "GET", "/api/v1/confirmations",
                                              token=a.token),
        "getConfirmation": lambda: T("getConfirmation", "GET", "/api/v1/confirmations/{confirmationID}",
                                     params={"confirmationID": world.confirmation_id}, token=a.token),
        "answerConfirmation": answer_confirmation,
        "createFitnessChallenge": lambda: T(
            "createFitnessChallenge", "POST", "/api/v1/challenges", token=a.token, baseline=(201,),
            body={"name": "Hostile sprint", "type": "distance", "goal": 5000.5, "startDate": _days(-1),
                  "endDate": _days(6), "visibility": "private", "includesUserEntered": True}),
        "listFitnessChallenges": lambda: T("listFitnessChallenges", "GET", "/api/v1/challenges",
                                           query={"scope": "public"}, token=a.token),
        "getFitnessChallenge": lambda: T("getFitnessChallenge", "GET", "/api/v1/challenges/{challengeID}",
                                         params=challenge, token=a.token),
        "joinFitnessChallenge": lambda: T("joinFitnessChallenge", "POST", "/api/v1/challenges/{challengeID}/join",
                                          params=challenge, token=a.token),
        "leaveFitnessChallenge": leave_challenge,
        "getFitnessChallengeLeaderboard": lambda: T(
            "getFitnessChallengeLeaderboard", "GET", "/api/v1/challenges/{challengeID}/leaderboard",
            params=challenge, token=a.token),
        "insertSupabaseRows": lambda: T(
            "insertSupabaseRows", "POST", "/rest/v1/{table}", params={"table": "health_connections"},
            query={"on_conflict": "user_id,provider"}, token=a.token,
            body={"provider": "healthkit", "permissions_granted": CONSENTED, "is_active": True},
            headers=supabase_headers("return=representation,resolution=merge-duplicates"), baseline=(201,)),
        "updateSupabaseRows": supabase_disconnect,
        "callSupabaseFunction": lambda: T(
            "callSupabaseFunction", "POST", "/rest/v1/rpc/{function}",
            params={"function": "get_challenges_for_health_sync"}, token=a.token, body={},
            headers=supabase_headers("return=representation")),
        "callSupabaseFunctionByGet": lambda: T(
            "callSupabaseFunctionByGet", "GET", "/rest/v1/rpc/{function}",
            params={"function": "get_challenges_for_health_sync"}, token=a.token,
            headers=supabase_headers("return=representation")),
        "readSupabaseTable": lambda: T(
            "readSupabaseTable", "GET", "/rest/v1/{table}", params={"table": "health_sync_logs"},
            query={"select": "*", "order": "started_at.desc", "limit": "5"}, token=a.token,
            headers=[("apikey", os.environ["HALE_SUPABASE_PUBLISHABLE_KEYS"])]),
    }
