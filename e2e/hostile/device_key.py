"""A seed-002 device key: P-256, its public key as a PEM SubjectPublicKeyInfo, and challenges signed as Android's
`SHA256withECDSA` signs them (ECDSA-SHA256 over the challenge's UTF-8), DER in standard base64.
See `Sources/HaleClient/SoftwareDeviceKey.swift` and `DeviceSigningConvention.swift`."""

import base64

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec


class DeviceKey:
    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())

    @property
    def public_key_pem(self):
        return (
            self.key.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode()
            .strip()
        )

    def sign(self, text):
        return base64.b64encode(self.key.sign(text.encode(), ec.ECDSA(hashes.SHA256()))).decode()
