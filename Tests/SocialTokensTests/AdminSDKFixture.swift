import Foundation

/// Custom tokens that Firebase's Admin SDK for Python (firebase-admin 7.7.0 from PyPI, with google-auth 2) minted
/// with a service account key made for this test alone (it belongs to no project and protects nothing), at
/// `time.time()` = 1750000000.75. RSASSA-PKCS1-v1_5 is deterministic, so a signer that writes the same header and
/// claims as the SDK produces these exact strings.
///
/// Made with this script, run with firebase-admin's wheel on `sys.path`:
///
/// ```python
/// import json, sys, time
/// sys.path.insert(0, '/tmp/fa/x')
/// from cryptography.hazmat.primitives.asymmetric import rsa
/// from cryptography.hazmat.primitives import serialization
/// import google.oauth2.service_account
/// from firebase_admin import _token_gen
///
/// key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
/// pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
///                         serialization.NoEncryption()).decode()
/// info = {
///     "type": "service_account", "project_id": "hale-petwash-test", "private_key_id": "0123456789abcdef0123456789abcdef01234567",
///     "private_key": pem, "client_email": "firebase-adminsdk-test@hale-petwash-test.iam.gserviceaccount.com",
///     "client_id": "100000000000000000001", "token_uri": "https://oauth2.googleapis.com/token",
/// }
/// cred = google.oauth2.service_account.Credentials.from_service_account_info(info)
///
/// class Credential:
///     def get_credential(self): return cred
///
/// class App:
///     project_id = "hale-petwash-test"
///     credential = Credential()
///     options = {}
///
/// _token_gen.time.time = lambda: 1750000000.75
/// gen = _token_gen.TokenGenerator(App(), None)
/// out = {
///     "serviceAccount": info,
///     "issuedAt": 1750000000,
///     "plain": gen.create_custom_token("petwash-user-1").decode(),
///     "unicode": gen.create_custom_token("ünïcødé-😀\"/\\\n").decode(),
///     "claims": gen.create_custom_token("petwash-user-1", {"plan": "gold", "premium": True, "tier": 3, "tags": ["a", "b"], "none": None}).decode(),
/// }
/// print(json.dumps(out, indent=1))
/// ```
enum AdminSDKFixture {
    /// The service account key file.
    static let serviceAccountJSON = #"""
        {
          "type": "service_account",
          "project_id": "hale-petwash-test",
          "private_key_id": "0123456789abcdef0123456789abcdef01234567",
          "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQDR/7tsGaFsPUlI\nE8NRX0l/j/cYqg30WLiBbDzPj7XGoSGoKWVmMNtSiWA6uIIjrFqEOXOrcX/Sk3x0\nAEHKD7oJiVkr+JusAuBChROG3Ourj0C00PLgJavM7bQki8qy37rs76WshvVNUhiE\nDCjzae/Sge9p7TUC9+Wohsvq8RZq8yjanSu3JJTyz2DfUMOhzO6UWbyJSiyc08QP\ntFFM6Vcc+i2HWPTydyrkpl6A1F7uvtLKn6YNOG+KfL53pX8nfpTEdOYf4DZKqZGG\nDKhnFGtRe0gKI5LLJGa3gUPKBiEDzXA5Ucf7pbNa2AtmjoRTys8JnKEw8cHZoVGz\nu3nik785AgMBAAECggEABZvKj1OL6nkkjjvrjoPN/GMwRUSyxLY4j0mrF3FjeHTw\nki4w2sQunLYLOjuX9jNHOPApNQiop6DFb8+wnMtDZmJ4XY1Gkxcsks+SZZqxjKPH\nJaJ4VMuMxWy1JU4P0YEvhokhUp9Jc+bfvWnEZOPibNaIOhBaHG8vKgts7M8YOy5L\nnB1oWJIZqe8uCqyQtqK8IpNDPZAl6yGCn/QCTSR8cTYMX2sUAboGltvelUPJ/uXU\n0hTlSuy0BtyXIuu7ZkfukzaVQXXtNVhh8PqqlT1+h0iqVArFGAHP37ky2BdYs3UM\n4lW7dLoV6qKXbyYy20W4MpLpUDeS1JqHdxgf3YYoJQKBgQD47ZOy4w4/vCWKrGUp\nCrogx5a0bDzrYk1r2ftmS5H/UNwPRGVqmMHdtexhr6qkwq7e8KKhYw91hb29eema\nA/WkQh6cI/PKJnjOtoJ3Gl4M+Qm0TaqkkV8SS1hbakyHRMd9bCmBb5pQnQTCh6g/\nIOOArWANm8VBZRjXvayS1QHNgwKBgQDX9wdbYpMa8vgKF9KV+l2fu2WAm1AfKJHi\ny2XOaf7R94iCL1Xo6QlBjCq8ipy+zPikJ1n7xO0EnNyMWU+FGCCITbW6D1liWeDQ\nQyQSNYsopw2kZ1YA+rLetEEaf3vchGkDOTNTAmKoAtVe8d6Ejp7W+JIB8Jn+QoJS\n0bM0bRK/kwKBgELRwyvptxF0t78Zt63kq0HRUarsww2MPawNv2YeMvqOAgQ3H+IV\nTzTseJ9gQDYp7Db78SvRI30wgVYzO3mURoPpG75eCDrjSNp0M2E1OrnQv8Iedwfl\n3ddTUkx3pENLOyF3v0x3YLzy6SwurgMEGQ2ZfIcqoTCEqr5+s6xWcT1xAoGAYJXs\nRmSZoc3UPL9WwRiN0qg+xvuvI6BDTojk6SHigwkPlhmRdG70YspLOrNLUtHcyZ2H\n0t/JmOyGfoZa2A1oT01h3uqKcT/9GWdNtI8Zw36izUoh3qJAaPV4wF8PiBn31Sc5\n2wAQG0/ZGXNWrzYRt9bHhfKTDHG2U0/Rs7qsTd0CgYBn/vdyomnx+74zkvQAMHg5\n0kvwslQasefzSgKxbdNYJNHPpHNCCCL71R+zTunUNkm33iyQFLWlllOLBNvclrgn\nlm55FmJ/88jeTQOC4DnwBZ7oi+gnyAqejGryERVR/k79EogftCClYQxIlJJm2pnx\ne2GouMrvYfRJ+vEewjkM2A==\n-----END PRIVATE KEY-----\n",
          "client_email": "firebase-adminsdk-test@hale-petwash-test.iam.gserviceaccount.com",
          "client_id": "100000000000000000001",
          "token_uri": "https://oauth2.googleapis.com/token"
        }
        """#

    /// When the tokens were minted: `int(time.time())`.
    static let issuedAt = Date(timeIntervalSince1970: 1_750_000_000.75)

    /// `create_custom_token("petwash-user-1")`.
    static let plain =
        "eyJhbGciOiAiUlMyNTYiLCAidHlwIjogIkpXVCIsICJraWQiOiAiMDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWYwMTIzNDU2NyJ9.e"
        + "yJpc3MiOiAiZmlyZWJhc2UtYWRtaW5zZGstdGVzdEBoYWxlLXBldHdhc2gtdGVzdC5pYW0uZ3NlcnZpY2VhY2NvdW50LmNvbSIsICJzdWIiOiA"
        + "iZmlyZWJhc2UtYWRtaW5zZGstdGVzdEBoYWxlLXBldHdhc2gtdGVzdC5pYW0uZ3NlcnZpY2VhY2NvdW50LmNvbSIsICJhdWQiOiAiaHR0cHM6L"
        + "y9pZGVudGl0eXRvb2xraXQuZ29vZ2xlYXBpcy5jb20vZ29vZ2xlLmlkZW50aXR5LmlkZW50aXR5dG9vbGtpdC52MS5JZGVudGl0eVRvb2xraXQ"
        + "iLCAidWlkIjogInBldHdhc2gtdXNlci0xIiwgImlhdCI6IDE3NTAwMDAwMDAsICJleHAiOiAxNzUwMDAzNjAwfQ.L2ESAV2YpfyUBgkTcVfJnk"
        + "B5bB7qoYbnsKH0Zm68Dqx-4UsnTJlU27jiqzGyZeU8SzeT-k0ov06Na8739JicLOlr_T3ME1hDkpo7I3TxUVajIM_k3bW1QTmseVqtc9YHrLwH"
        + "1bRttqsMYPTGNyiH7jBK_-CRmOMcNRBowJZWhERl1WtyGdFlW_LTVlYVMUSGHiDKg2Hv90781ZcI8vH8ze-sSJ_xNzUlKV3nsGdFqeYMcoKCxD"
        + "IKFTR0yY9GGTLNmSyb-4akTQ5nCeSOM1PPdbe7PSSyKXMC0ByO55sTUBW30hN-_rj-sbpneNNHI8TcY2aHLq84J27jbj1EnDgJDQ"

    /// `create_custom_token("ünïcødé-😀\"/\\\n")`: every kind of escape `json.dumps` writes.
    static let unicode =
        "eyJhbGciOiAiUlMyNTYiLCAidHlwIjogIkpXVCIsICJraWQiOiAiMDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWYwMTIzNDU2NyJ9.e"
        + "yJpc3MiOiAiZmlyZWJhc2UtYWRtaW5zZGstdGVzdEBoYWxlLXBldHdhc2gtdGVzdC5pYW0uZ3NlcnZpY2VhY2NvdW50LmNvbSIsICJzdWIiOiA"
        + "iZmlyZWJhc2UtYWRtaW5zZGstdGVzdEBoYWxlLXBldHdhc2gtdGVzdC5pYW0uZ3NlcnZpY2VhY2NvdW50LmNvbSIsICJhdWQiOiAiaHR0cHM6L"
        + "y9pZGVudGl0eXRvb2xraXQuZ29vZ2xlYXBpcy5jb20vZ29vZ2xlLmlkZW50aXR5LmlkZW50aXR5dG9vbGtpdC52MS5JZGVudGl0eVRvb2xraXQ"
        + "iLCAidWlkIjogIlx1MDBmY25cdTAwZWZjXHUwMGY4ZFx1MDBlOS1cdWQ4M2RcdWRlMDBcIi9cXFxuIiwgImlhdCI6IDE3NTAwMDAwMDAsICJle"
        + "HAiOiAxNzUwMDAzNjAwfQ.xk2vOEb9fnwsSzLN2Lizdv8HloOZuZXpFvEwlKn3LjjkUX7PDjHV_0hd8UaD1mpk-SyxfyKWdK1CNvuFyjsdK2qO"
        + "MkNfNhDi7Rt0JMr7oUsn5B5QYqirC1Pn2XUV4ZDqKrFvaLcdn1crRNY5-7x3TUZK9S_Q27AjVwXmepep3zYGB3bx74wBT18fvE6YiD2O5Larpl"
        + "A1yYSVYCWzl7eb3WOkOxy-71__jIqPtTCGVHxZ2q-v0P1GEOXZPecph0TobBUfg29ClPcZ1K9rHce24rSNsVK0785JgePSMCvDh8zaR1ANXD5U"
        + "PaN3fumb-hSOUacwQxNOXJvvWBMFbPx9xg"

    /// `create_custom_token("petwash-user-1", {"plan": "gold", "premium": True, "tier": 3, "tags": ["a", "b"],
    /// "none": None})`.
    static let claims =
        "eyJhbGciOiAiUlMyNTYiLCAidHlwIjogIkpXVCIsICJraWQiOiAiMDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWYwMTIzNDU2NyJ9.e"
        + "yJpc3MiOiAiZmlyZWJhc2UtYWRtaW5zZGstdGVzdEBoYWxlLXBldHdhc2gtdGVzdC5pYW0uZ3NlcnZpY2VhY2NvdW50LmNvbSIsICJzdWIiOiA"
        + "iZmlyZWJhc2UtYWRtaW5zZGstdGVzdEBoYWxlLXBldHdhc2gtdGVzdC5pYW0uZ3NlcnZpY2VhY2NvdW50LmNvbSIsICJhdWQiOiAiaHR0cHM6L"
        + "y9pZGVudGl0eXRvb2xraXQuZ29vZ2xlYXBpcy5jb20vZ29vZ2xlLmlkZW50aXR5LmlkZW50aXR5dG9vbGtpdC52MS5JZGVudGl0eVRvb2xraXQ"
        + "iLCAidWlkIjogInBldHdhc2gtdXNlci0xIiwgImlhdCI6IDE3NTAwMDAwMDAsICJleHAiOiAxNzUwMDAzNjAwLCAiY2xhaW1zIjogeyJwbGFuI"
        + "jogImdvbGQiLCAicHJlbWl1bSI6IHRydWUsICJ0aWVyIjogMywgInRhZ3MiOiBbImEiLCAiYiJdLCAibm9uZSI6IG51bGx9fQ.p51HUwYL9wbw"
        + "IW0PSp9k_dfzP4M9XVV04y8vnjlI1znBrUM7wwYv4meGFhyDrQAAVuABjcwXtrSFkFYXMErgBfVl4QjsFfuPXEKvUuL5YCcoblvP7wfvciKStg"
        + "AS9zKG5tFfOvJILIL62Kot7HNQ3UzZ45vNBBZtCJxNY0id04q9sRSQquaGZ7PKyesArxzzZfeJSzvJ6BFIQnHX2lqsbcdiMzzUeszFfgJKt3fM"
        + "NhPIlpuFsCoS4lDPPf4l7AC_--W9jwtbpVIMXgaznPi6icIpdEsiCfverYtvUFmX1Rsan9fx49Fm5FB_buB2sEW2fEVLxCBqMB5lKParytaXxA"
}
