#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (Fuzz/Seeds/<target>/) and dictionaries (Fuzz/Dictionaries/<target>.dict).

Seeds come from the tests' fixtures (Tests/WebAuthnTests/Fixtures, Tests/DeviceIntegrityTests/Fixtures, the literal
keys of Tests/DeviceKeysTests) and from bodies written here in the shape the tests' fixture builders make. Each seed is
in its target's input format (see Fuzz/Sources/hale-fuzz/Targets): a mode byte where the target has modes, then parts
joined by the separator b"\\0HALE\\0". Seeds that the target signs or encrypts itself are written unsigned.

Run from anywhere with Python 3 and nothing else: python3 Fuzz/make-seeds.py. It replaces both folders.
"""

import base64
import hashlib
import io
import json
import pathlib
import re
import shutil
import zipfile

FUZZ = pathlib.Path(__file__).resolve().parent
ROOT = FUZZ.parent
SEP = b"\0HALE\0"
# The fixed "now" of the targets that check times (play-integrity, social-tokens, health-sync), in seconds.
NOW = 1_750_000_000


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def compact(value) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True).encode()


def seeds_for(target: str) -> dict:
    return SEEDS.setdefault(target, {})


SEEDS: dict = {}


def add(target: str, name: str, data: bytes) -> None:
    seeds_for(target)[name] = data


# --- WebAuthn fixtures: registration and authentication responses, COSE keys, CBOR -----------------------------------


def webauthn_fixtures():
    for path in sorted((ROOT / "Tests/WebAuthnTests/Fixtures").glob("*.json")):
        fixture = json.loads(path.read_text())
        response = fixture["response"]
        if fixture.get("encoding") == "hex":
            response = hex_to_base64url(response)
        yield path.stem, fixture, response


def hex_to_base64url(value):
    if isinstance(value, dict):
        return {key: hex_to_base64url(member) for key, member in value.items()}
    if isinstance(value, str) and re.fullmatch(r"(?:[0-9a-f]{2})+", value):
        return b64url(bytes.fromhex(value))
    return value


def add_webauthn_seeds():
    for name, fixture, response in webauthn_fixtures():
        client_data = unb64url(response["response"]["clientDataJSON"])
        if fixture["kind"] == "registration":
            attestation = unb64url(response["response"]["attestationObject"])
            add("webauthn-registration", f"json-{name}", b"J" + compact(response))
            add("webauthn-registration", f"raw-{name}", b"R" + client_data + SEP + attestation)
            add("cbor", f"attestation-object-{name}", attestation)
            if fixture.get("expectedCredentialPublicKey"):
                add("cose-key", name, unb64url(fixture["expectedCredentialPublicKey"]))
        else:
            key = unb64url(fixture["credentialPublicKey"])
            parts = response["response"]
            add("webauthn-authentication", f"json-{name}", b"J" + compact(response) + SEP + key)
            raw = [client_data, unb64url(parts["authenticatorData"]), unb64url(parts["signature"]), key]
            add("webauthn-authentication", f"raw-{name}", b"R" + SEP.join(raw))
            add("cose-key", name, key)
            add("cbor", f"cose-key-{name}", key)
    # Signed by the target with its own key (empty signature part): flags UP, UP+UV+BE+BS, and extension data.
    client_data = compact({"type": "webauthn.get", "challenge": b64url(b"hale-fuzz-challenge"),
                           "origin": "http://localhost:5000", "crossOrigin": False})
    rp_hash = hashlib.sha256(b"localhost").digest()
    for flags, tail, label in [(0x01, b"", "up"), (0x1D, b"", "uv-be-bs"), (0x85, bytes.fromhex("a16b6372656450726f7465637401"), "ed")]:
        authenticator_data = rp_hash + bytes([flags]) + (6).to_bytes(4, "big") + tail
        add("webauthn-authentication", f"self-signed-{label}", b"R" + client_data + SEP + authenticator_data + SEP)


# --- App Attest fixtures --------------------------------------------------------------------------------------------


def yaml_documents(text: str):
    """The top-level `key: value` scalars of each document, as Tests/DeviceIntegrityTests/FixtureDocuments.swift reads them."""
    document = {}
    for line in text.split("\n"):
        if line == "---":
            if document:
                yield document
            document = {}
        elif line and line[0] != " " and ":" in line:
            key, value = line.split(":", 1)
            document[key] = value.strip().strip("'")
    if document:
        yield document


def add_app_attest_seeds():
    folder = ROOT / "Tests/DeviceIntegrityTests/Fixtures"
    for path in sorted(folder.glob("ios-*.yaml")):
        for document in yaml_documents(path.read_text()):
            if document.get("type") == "attestation":
                attestation = base64.b64decode(document["attestationBase64"])
                add("app-attest-attestation", path.stem, attestation)
                add("cbor", f"app-attest-attestation-{path.stem}", attestation)
            elif document.get("type") == "assertion":
                assertion = base64.b64decode(document["assertionBase64"])
                add("app-attest-assertion", f"{path.stem}-{document['id'][:8]}", assertion)
                add("cbor", f"app-attest-assertion-{path.stem}-{document['id'][:8]}", assertion)
    kayak = json.loads((folder / "webauthn4j-kayak-production.json").read_text())
    client_data_hash = hashlib.sha256(kayak["clientData"].encode()).digest()
    add("app-attest-attestation", "kayak-production", base64.b64decode(kayak["attestationBase64"]) + SEP + client_data_hash)
    assertion = base64.b64decode(kayak["assertion"]["assertionBase64"])
    add("app-attest-assertion", "kayak-production", assertion + SEP + client_data_hash)


# --- CBOR: RFC 8949 Appendix A, from the CBOR tests ----------------------------------------------------------------


def add_cbor_seeds():
    text = (ROOT / "Tests/CBORTests/RFC8949AppendixATests.swift").read_text()
    for index, hex_text in enumerate(sorted(set(re.findall(r'"((?:[0-9a-f]{2}){1,64})"', text)))):
        add("cbor", f"rfc8949-{index:03}", bytes.fromhex(hex_text))


# --- Play Integrity: payloads as Tests/DeviceIntegrityTests/TestPlayIntegrity.swift makes them -----------------------


def play_payload(**changes):
    payload = {
        "requestDetails": {"requestPackageName": "com.example.health", "nonce": "aGFsZS1ub25jZS0x",
                           "timestampMillis": str(NOW * 1000 - 10_000)},
        "appIntegrity": {"appRecognitionVerdict": "PLAY_RECOGNIZED", "packageName": "com.example.health",
                         "certificateSha256Digest": ["Lg0q1uTnh0kpu_GN7TnxQcFZRi4zcAxRn7mfqFiVyfQ"], "versionCode": "42"},
        "deviceIntegrity": {"deviceRecognitionVerdict": ["MEETS_DEVICE_INTEGRITY"]},
        "accountDetails": {"appLicensingVerdict": "LICENSED"},
    }
    for section, members in changes.items():
        if members is None:
            payload.pop(section)
        else:
            payload[section] = {**payload[section], **members}
    return compact(payload)


def add_play_integrity_seeds():
    add("play-integrity", "payload-valid", b"P" + play_payload())
    add("play-integrity", "payload-number-timestamp", b"P" + play_payload(requestDetails={"timestampMillis": NOW * 1000}))
    add("play-integrity", "payload-request-hash", b"P" + play_payload(requestDetails={"nonce": None, "requestHash": "aGFsZS1ub25jZS0x"}))
    add("play-integrity", "payload-unevaluated-app", b"P" + play_payload(appIntegrity={"appRecognitionVerdict": "UNEVALUATED", "packageName": None}))
    add("play-integrity", "payload-no-device", b"P" + play_payload(deviceIntegrity=None, accountDetails=None))
    header = b64url(b'{"alg":"ES256"}')
    add("play-integrity", "jws", b"S" + f"{header}.{b64url(play_payload())}.{b64url(bytes(64))}".encode())
    crit_header = b64url(compact({"alg": "ES256", "crit": ["x"]}))
    add("play-integrity", "jws-crit", b"S" + f"{crit_header}.{b64url(b'{}')}.".encode())
    jwe_header = b64url(b'{"alg":"A256KW","enc":"A256GCM"}')
    parts = [jwe_header, b64url(bytes(range(40))), b64url(bytes(12)), b64url(b"ciphertext"), b64url(bytes(16))]
    add("play-integrity", "jwe", b"T" + ".".join(parts).encode())


# --- Device keys: the literal keys of Tests/DeviceKeysTests/Fixtures.swift -----------------------------------------------


def add_device_key_seeds():
    text = (ROOT / "Tests/DeviceKeysTests/Fixtures.swift").read_text()
    for match in re.finditer(r"static let (\w+PEM) =\n?((?:\s*(?:\+ )?\"[^\"]*\"\n?)+)", text):
        pem = "".join(re.findall(r'"([^"]*)"', match.group(2))).replace("\\n", "\n").encode()
        der = base64.b64decode(b"".join(line for line in pem.split(b"\n") if line and not line.startswith(b"-----")))
        name = match.group(1)
        signature = base64.b64encode(bytes(256 if "RSA" in name else 72)).rstrip(b"=")
        add("device-keys", f"pem-{name}", b"P" + pem + SEP + base64.b64encode(bytes(70)) + SEP + b"challenge-1")
        add("device-keys", f"der-{name}", b"D" + der + SEP + signature + SEP + b"challenge-2")


# --- Social tokens: claims as Tests/SocialTokensTests/Fixture.swift makes them ------------------------------------------


def add_social_token_seeds():
    google = {"iss": "https://accounts.google.com", "azp": "1234-android.apps.googleusercontent.com",
              "aud": "1234-ios.apps.googleusercontent.com", "sub": "110169484474386276334", "email": "ada@gmail.com",
              "email_verified": True, "name": "Ada Lovelace", "iat": NOW - 10, "exp": NOW + 3590}
    apple = {"iss": "https://appleid.apple.com", "aud": "app.hale.ios", "sub": "001234.abcdef0123456789.1234",
             "email": "ada@example.com", "email_verified": "true", "iat": NOW - 10, "exp": NOW + 86_390,
             "auth_time": NOW - 12, "nonce_supported": True, "nonce": hashlib.sha256(b"n-0S6_WzA2Mj").hexdigest()}
    facebook = {"iss": "https://www.facebook.com", "aud": "987654321", "sub": "10215241773831025",
                "email": "ada@example.com", "name": "Ada Lovelace", "iat": NOW - 10, "exp": NOW + 3590,
                "jti": "5b0c2f1e-4c1a-4d1f-9a0e-0d5e2a7b9c11", "nonce": "fb-nonce-1"}
    firebase = {"iss": "https://securetoken.google.com/hale-fuzz", "aud": "hale-fuzz",
                "sub": "kZ3pQ9xYb2T7mVn4Rs8LwE1cHf62", "iat": NOW - 10, "exp": NOW + 3590, "auth_time": NOW - 12,
                "firebase": {"sign_in_provider": "custom"}}
    event = {"type": "consent-revoked", "sub": apple["sub"], "event_time": (NOW - 2) * 1000}
    notification = {"iss": "https://appleid.apple.com", "aud": "app.hale.ios", "iat": NOW - 1, "exp": NOW + 86_399,
                    "jti": "yctpp1ZHaGCzaNB9PWB4DA", "events": json.dumps(event, sort_keys=True)}
    for mode, name, claims, nonce in [(b"g", "google", google, None), (b"a", "apple", apple, b"n-0S6_WzA2Mj"),
                                      (b"f", "facebook", facebook, b"fb-nonce-1"), (b"r", "firebase", firebase, None)]:
        add("social-tokens", f"claims-{name}", mode + compact(claims) + (SEP + nonce if nonce else b""))
        header = b64url(compact({"alg": "RS256", "kid": "fuzz-rs256", "typ": "JWT"}))
        token = f"{header}.{b64url(compact(claims))}.{b64url(bytes(256))}".encode()
        add("social-tokens", f"token-{name}", mode.upper() + token)
    # A Firebase custom token sent where an ID token is due: refused by its audience before any key is fetched.
    custom_token_audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    add("social-tokens", "claims-firebase-custom-token", b"r" + compact({**firebase, "aud": custom_token_audience}))
    add("social-tokens", "claims-apple-notification", b"n" + compact(notification))
    add("social-tokens", "claims-apple-notification-object-events", b"n" + compact({**notification, "events": event}))
    header = b64url(compact({"alg": "RS256", "kid": "fuzz-rs256"}))
    add("social-tokens", "token-apple-notification", b"N" + f"{header}.{b64url(compact(notification))}.{b64url(bytes(256))}".encode())
    add("social-tokens", "facebook-access-token", b"F" + b"EAAGm0PX4ZCpsBAKZCZBZAsomething")


# --- The server's strict JSON readers, in the shapes the HaleServer tests send ---------------------------------------


def add_strict_json_seeds():
    registration = next(response for _, fixture, response in webauthn_fixtures() if fixture["kind"] == "registration")
    authentication = next(response for _, fixture, response in webauthn_fixtures() if fixture["kind"] == "authentication")
    bodies = {
        "V": {"a": [1, -2.5e-3, "\u00e9\U0001F600", None, True, {"b": {}}], "big": 18446744073709551616},
        "H": {"nonce": "n-1", "attestationToken": "token", "platform": "ios", "steps": 8500.0, "duration": 3600,
              "calories": 320.5, "distance": 6120.25, "source": "healthkit", "date": "2025-06-15"},
        "O": {"data": {"type": "oauthLogin", "attributes": {
            "provider": "apple", "oauthToken": "header.claims.signature", "role": "cleaner", "nonce": "n",
            "authorizationCode": "c0de", "additionalData": {
                "phone": "+962792002802", "availableDays": ["monday", "friday"], "timeSlots": ["morning"],
                "maxHoursPerWeek": 20, "acceptsUrgentOffers": True, "yearsOfExperience": 3,
                "hasCleaningSupplies": True, "comfortableWithPets": False, "serviceRadius": 15,
                "agreedToTerms": True}},
            "relationships": {"previousServices": {"data": [{"type": "service", "id": 1}, {"type": "service", "id": "2"}]},
                              "preferredServices": {"data": []},
                              "deviceTokens": {"data": {"attributes": {"token": "push-token"}}}}}},
        "K": {"keyId": base64.b64encode(bytes(32)).decode(), "attestation": base64.b64encode(b"\xa0").decode(), "nonce": "n"},
        "S": sync_body(),
        "Y": {"platform": "ios", "data": {"steps": 8500, "distance": 6.2, "date": "2025-06-15"}},
        "R": {"credential": registration, "deviceInfo": {"platform": "ios", "osVersion": "18.0", "deviceName": "iPhone"}},
        "A": {"credential": authentication},
        "D": {"deviceName": "Pixel 8", "deviceType": "android", "deviceFingerprint": "fp-1",
              "publicKey": "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----", "keyAlgorithm": "EC"},
        "B": {"sessionId": "00000000-0000-0000-0000-000000000001", "signedChallenge": "c2ln", "rememberMe": True},
        "C": {"platform": "healthkit", "permissions": ["steps", "distance"]},
        "F": {"name": "June steps", "type": "steps", "goal": 100000, "startDate": "2025-06-01",
              "endDate": "2025-06-30", "visibility": "private", "includesUserEntered": False},
        "M": {"accountId": "00000000-0000-0000-0000-000000000001", "actionType": "payment",
              "actionPayload": {"amount": 12.5, "currency": "EUR"}, "expiresIn": 300},
        "W": {"decision": "approve", "signature": "c2ln", "deviceId": "00000000-0000-0000-0000-000000000002"},
    }
    for mode, body in bodies.items():
        add("strict-json", f"body-{mode}", mode.encode() + json.dumps(body, ensure_ascii=False).encode())


def sync_body():
    sample = {"id": "6A3B2C1D-0000-4000-8000-000000000001", "type": "steps", "value": 1200, "unit": "count",
              "startDate": "2025-06-15T23:30:00+02:00", "endDate": "2025-06-16T00:30:00.250+02:00",
              "sourceBundle": "com.apple.health", "deviceModel": "Watch6,2", "userEntered": False, "version": 3}
    connect = {"id": "hc-record-2", "type": "DistanceRecord", "value": 1.5, "unit": "km",
               "startDate": "2025-06-15T08:00:00Z", "endDate": "2025-06-15T08:20:00Z", "timeZoneOffset": "-05:30",
               "deviceType": "TYPE_WATCH", "lastModified": "2025-06-15T08:21:00.123Z"}
    oxygen = {"type": "HKQuantityTypeIdentifierOxygenSaturation", "value": 0.97, "unit": "%",
              "startDate": "2025-06-15T08:00:00Z", "endDate": "2025-06-15T08:00:00Z"}
    return {"provider": "healthkit", "syncType": "initial", "lookbackDays": 30, "batchId": "batch-1",
            "samples": [sample, connect, oxygen], "deletions": ["hc-record-0"]}


def add_health_sync_seeds():
    add("health-sync", "batch", b"B" + compact(sync_body()))
    add("health-sync", "batch-health-connect", b"B" + compact({**sync_body(), "provider": "health_connect", "syncType": "background"}))
    for index, text in enumerate(["2025-10-28T14:03:11Z", "2025-10-28T16:03:11.250+02:00", "2025-10-28T16:03:11-0430",
                                  "+14:00", "-00:30"]):
        add("health-sync", f"timestamp-{index}", b"T" + text.encode())


EXPORT = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
<!ATTLIST HealthData locale CDATA #REQUIRED>
]>
<HealthData locale="en_US">
 <ExportDate value="2024-03-10 12:00:00 -0400"/>
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ada&apos;s Watch" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3&gt;" unit="count" creationDate="2024-03-10 09:11:00 -0400" startDate="2024-03-10 09:00:00 -0400" endDate="2024-03-10 09:10:00 -0400" value="812"/>
 <Record type="HKQuantityTypeIdentifierDistanceWalkingRunning" sourceName="Health" unit="km" startDate="2024-03-10 08:00:00 -0400" endDate="2024-03-10 08:30:00 -0400" value="1.5">
  <MetadataEntry key="HKWasUserEntered" value="1"/>
 </Record>
 <Correlation type="HKCorrelationTypeIdentifierBloodPressure" startDate="2024-03-10 07:00:00 -0400" endDate="2024-03-10 07:00:00 -0400">
  <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" unit="mmHg" startDate="2024-03-10 07:00:00 -0400" endDate="2024-03-10 07:00:00 -0400" value="120"/>
 </Correlation>
 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="31.5" durationUnit="min" startDate="2024-03-10 06:00:00 -0400" endDate="2024-03-10 06:31:30 -0400"/>
 <ActivitySummary dateComponents="2024-03-10" activeEnergyBurned="410"/>
</HealthData>
"""


def add_health_export_seeds():
    # The first byte chooses the size of the chunks the reader is fed (1 to 256).
    for size in [1, 17, 256]:
        add("health-export", f"export-chunk-{size}", bytes([size - 1]) + EXPORT.encode())
    add("health-export", "bomb", bytes([63]) + b'<!DOCTYPE HealthData [<!ENTITY a "aa"><!ENTITY b "&a;&a;">]>'
        b'<HealthData locale="en"><Record type="&b;"/></HealthData>')


def zipped(xml):
    buffer = io.BytesIO()
    # A fixed date, so that the seed is the same each time it is made.
    entry = zipfile.ZipInfo("apple_health_export/export.xml", date_time=(2024, 3, 10, 0, 0, 0))
    entry.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(entry, xml)
    return buffer.getvalue()


def add_health_export_zip_seeds():
    add("health-export-zip", "export", zipped(EXPORT.encode()))
    # Inflates to 4 MiB of spaces after the root: past the target's limit of 1 MiB of XML.
    add("health-export-zip", "bomb", zipped(b'<HealthData locale="en">' + b" " * (4 << 20)))


# --- Dictionaries -------------------------------------------------------------------------------------------------

JSON_TOKENS = ['{', '}', '[', ']', ':', ',', '"', 'true', 'false', 'null', '-0', '1e308', '-1e-400', '0.1',
               '18446744073709551616', '\\"', '\\\\', '\\u0000', '\\ud83d\\ude00', '\\ud800', '\\udc00']
CBOR_TOKENS = [b"\xa1", b"\xa3", b"\xa5", b"\x80", b"\x82", b"\x58\x20", b"\x59\x01\x00", b"\x5a\x00\x01\x00\x00",
               b"\x1b\xff\xff\xff\xff\xff\xff\xff\xff", b"\x3b\xff\xff\xff\xff\xff\xff\xff\xff", b"\x9f", b"\xbf",
               b"\xff", b"\xf4", b"\xf5", b"\xf6", b"\xf7", b"\xf8\x20", b"\xf9\x7e\x00", b"\xf9\x7c\x01",
               b"\xfa\x7f\x80\x00\x01", b"\xfb\x7f\xf8\x00\x00\x00\x00\x00\x01", b"\xc0", b"\xd8\x18", b"\x20", b"\x21",
               b"\x22", b"\x26", b"\x39\x01\x00", b"cfmt", b"gattStmt", b"hauthData", b"cx5c", b"csig", b"calg",
               b"greceipt", b"isignature", b"qauthenticatorData", b"cver", b"hcertInfo", b"gpubArea", b"hresponse"]
# COSE: kty AKP (1: 7); alg ML-DSA-44, -65, -87 (-48, -49, -50); pub heads of 1312, 1952 and 2592 bytes.
COSE_TOKENS = [b"\x01\x07", b"\x03\x38\x2f", b"\x03\x38\x30", b"\x03\x38\x31", b"\x59\x05\x20", b"\x59\x07\xa0",
               b"\x59\x0a\x20"]
BASE64_TOKENS = ["=", "==", "-", "_", "+", "/", "."]
KEYS = {
    "webauthn": ["type", "challenge", "origin", "crossOrigin", "topOrigin", "webauthn.create", "webauthn.get",
                 "http://localhost:5000", "id", "rawId", "public-key", "response", "clientDataJSON",
                 "attestationObject", "authenticatorData", "signature", "userHandle", "transports"],
    "jose": ["alg", "kid", "crit", "typ", "ES256", "RS256", "A256KW", "A256GCM", "none", "HS256", "iss", "aud", "sub",
             "exp", "iat", "nbf", "nonce", "email", "email_verified", "events", "event_time", "jti",
             "requestDetails", "appIntegrity", "deviceIntegrity", "accountDetails", "timestampMillis",
             "requestPackageName", "packageName", "certificateSha256Digest", "PLAY_RECOGNIZED",
             "MEETS_DEVICE_INTEGRITY", "fuzz-es256", "fuzz-rs256", "https://appleid.apple.com"],
    # Firebase ID tokens' own claims and issuer, for the social-tokens target only.
    "firebase": ["auth_time", "firebase", "sign_in_provider", "custom", "anonymous", "identities",
                 "https://securetoken.google.com/hale-fuzz", "hale-fuzz"],
    "pem": ["-----BEGIN PUBLIC KEY-----", "-----END PUBLIC KEY-----", "\n", "\r\n", "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE",
            "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", "IDAQAB"],
    "export": ["<HealthData", "</HealthData>", "<Record", "</Record>", "<Workout", "<Correlation", "</Correlation>",
               "<ActivitySummary", "<MetadataEntry", "<!DOCTYPE", "<!ENTITY", "<!--", "-->", "/>", 'type="', 'value="',
               'unit="', 'startDate="', 'endDate="', 'device="', "HKQuantityTypeIdentifierStepCount",
               "HKWasUserEntered", "&amp;", "&lt;", "&#x", "2024-03-10 09:00:00 -0400", "hardware:"],
    "server": ["samples", "deletions", "provider", "syncType", "lookbackDays", "batchId", "startDate", "endDate",
               "timeZoneOffset", "userEntered", "version", "lastModified", "value", "unit", "healthkit",
               "health_connect", "steps", "oxygen_saturation", "count", "km", "%", "kcal", "data", "attributes",
               "relationships", "T00:00:00Z", "+18:00", "-18:00", "9999-12-31", "0001-01-01", ".999999999"],
}
DICTIONARY_TOKENS = {
    "cbor": [CBOR_TOKENS],
    "cose-key": [CBOR_TOKENS, COSE_TOKENS],
    "app-attest-attestation": [CBOR_TOKENS, [SEP]],
    "app-attest-assertion": [CBOR_TOKENS, [SEP]],
    "webauthn-registration": [JSON_TOKENS, CBOR_TOKENS, COSE_TOKENS, BASE64_TOKENS, KEYS["webauthn"], [SEP]],
    "webauthn-authentication": [JSON_TOKENS, CBOR_TOKENS, COSE_TOKENS, BASE64_TOKENS, KEYS["webauthn"], [SEP]],
    "play-integrity": [JSON_TOKENS, BASE64_TOKENS, KEYS["jose"]],
    "social-tokens": [JSON_TOKENS, BASE64_TOKENS, KEYS["jose"], KEYS["firebase"], [SEP]],
    "device-keys": [BASE64_TOKENS, KEYS["pem"], [SEP]],
    "strict-json": [JSON_TOKENS, KEYS["server"], KEYS["webauthn"]],
    "health-sync": [JSON_TOKENS, KEYS["server"]],
    "health-export": [KEYS["export"]],
    "health-export-zip": [KEYS["export"], [b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06", b"apple_health_export/"]],
}


def dictionary_line(token) -> str:
    data = token if isinstance(token, bytes) else token.encode()
    escaped = "".join(chr(b) if 0x20 <= b < 0x7F and chr(b) not in '"\\' else f"\\x{b:02x}" for b in data)
    return f'"{escaped}"'


def write(folder: pathlib.Path, files: dict) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, data in sorted(files.items()):
        (folder / name).write_bytes(data)


def main() -> None:
    add_cbor_seeds()
    add_webauthn_seeds()
    add_app_attest_seeds()
    add_play_integrity_seeds()
    add_device_key_seeds()
    add_social_token_seeds()
    add_strict_json_seeds()
    add_health_sync_seeds()
    add_health_export_seeds()
    add_health_export_zip_seeds()
    seeds = FUZZ / "Seeds"
    shutil.rmtree(seeds, ignore_errors=True)
    for target, files in SEEDS.items():
        write(seeds / target, files)
    dictionaries = {}
    for target, groups in DICTIONARY_TOKENS.items():
        tokens = list(dict.fromkeys(token for group in groups for token in group))
        dictionaries[f"{target}.dict"] = ("\n".join(map(dictionary_line, tokens)) + "\n").encode()
    write(FUZZ / "Dictionaries", dictionaries)
    total = sum(len(data) for files in SEEDS.values() for data in files.values())
    print(f"{sum(map(len, SEEDS.values()))} seeds for {len(SEEDS)} targets, {total} bytes")


if __name__ == "__main__":
    main()
