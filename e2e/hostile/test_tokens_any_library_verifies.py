"""Issue 33's second part, from the issuer URL alone, as a resource server does it with an unmodified library:
fetch the discovery document, then the key set it names, then verify an access token's signature, `iss` and `aud`
with PyJWT; and ask introspection (RFC 7662) about the same token with the admin API key.

`run.sh` starts the server with `server.publicURL` (so the issuer is that URL) and `tokens.audiences`."""

import json
import os
import urllib.parse
import urllib.request

import jwt
import pytest
from jwt import PyJWKClient

AUDIENCE = "https://api.hostile.example"


def fetch(url, data=None, headers=None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


@pytest.fixture(scope="module")
def issuer(server):
    return server.url


def test_pyjwt_verifies_an_access_token_starting_from_the_issuer(world, issuer):
    discovery = fetch(issuer + "/.well-known/openid-configuration")
    assert discovery["issuer"] == issuer
    token, _ = world.sign_in_with_passkey(world.a)
    signing_key = PyJWKClient(discovery["jwks_uri"]).get_signing_key_from_jwt(token)
    claims = jwt.decode(
        token,
        signing_key.key,
        algorithms=discovery["id_token_signing_alg_values_supported"],
        issuer=issuer,
        audience=AUDIENCE,
        options={"require": ["iss", "aud", "sub", "exp", "iat", "jti"]},
    )
    assert claims["sub"] == world.a.account_id
    with pytest.raises(jwt.InvalidAudienceError):
        jwt.decode(token, signing_key.key, algorithms=["ES256"], issuer=issuer, audience="https://someone.else")
    with pytest.raises(jwt.InvalidIssuerError):
        jwt.decode(token, signing_key.key, algorithms=["ES256"], issuer="https://not.hale", audience=AUDIENCE)
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(forged, signing_key.key, algorithms=["ES256"], issuer=issuer, audience=AUDIENCE)


def test_introspection_agrees_and_knows_what_a_signature_cannot(world, server, issuer):
    discovery = fetch(issuer + "/.well-known/openid-configuration")
    token, _ = world.sign_in_with_passkey(world.a)

    def introspect(value):
        return fetch(
            discovery["introspection_endpoint"],
            data=urllib.parse.urlencode({"token": value}).encode(),
            headers={
                "Authorization": f"Bearer {server.admin_key}",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )

    answer = introspect(token)
    assert answer["active"] is True
    assert answer["sub"] == world.a.account_id
    assert answer["iss"] == issuer and answer["aud"] == [AUDIENCE]
    session = answer["sid"]
    logout = server.call("POST", "/api/v1/auth/logout", token=token, body={})
    assert logout.status in (200, 204), logout.body
    # The signature still verifies until the token expires; only introspection knows the session has ended.
    assert introspect(token) == {"active": False}, session
    assert introspect("not a token") == {"active": False}
