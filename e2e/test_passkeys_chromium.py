"""Seed 000's passkey flow in a real browser: headless Chromium with a WebAuthn virtual authenticator registers a
passkey and signs in with it against a running `hale serve`, through the documented endpoints.

The page is Hale's own origin (Chromium treats http://localhost as a secure context), so the API is called
same-origin. Set HALE_URL (http://localhost:PORT, which must be in passkeys.origins, with passkeys.rpId=localhost)
and HALE_TOKEN (a personal access token from `hale accounts create`).
"""

import json
import os
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

HALE_URL = os.environ.get("HALE_URL", "")
HALE_TOKEN = os.environ.get("HALE_TOKEN", "")
CHROMIUM = os.environ.get("CHROMIUM_BINARY", "/usr/lib/chromium/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")

pytestmark = pytest.mark.skipif(not HALE_URL or not HALE_TOKEN, reason="needs HALE_URL and HALE_TOKEN")

# Runs in the page: the same calls the Android and iOS code of seed 000 makes, with the browser's WebAuthn API.
CEREMONIES = """
const [token, done] = [arguments[0], arguments[arguments.length - 1]];
const post = (path, body, bearer) => fetch(path, {
    method: 'POST',
    headers: Object.assign({'Content-Type': 'application/json'}, bearer ? {'Authorization': 'Bearer ' + bearer} : {}),
    body: JSON.stringify(body),
}).then(async response => ({status: response.status, body: await response.json()}));
(async () => {
    const device = {platform: 'web', osVersion: navigator.userAgent.slice(0, 40), deviceName: 'Headless Chromium'};
    const options = await post('/api/mobile/biometric/register/options', device, token);
    const created = await navigator.credentials.create(
        {publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options.body.options)});
    const registered = await post(
        '/api/mobile/biometric/register/verify', {credential: created.toJSON(), deviceInfo: device}, token);
    const request = await post('/api/mobile/biometric/authenticate/options', {email: 'browser@example.com'});
    const asserted = await navigator.credentials.get(
        {publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(request.body.options)});
    const signedIn = await post(
        '/api/mobile/biometric/authenticate/verify', {credential: asserted.toJSON(), uid: request.body.uid});
    const signUpOptions = await post('/api/mobile/biometric/register/options', {displayName: 'Browser Sign-up'});
    const signUpCredential = await navigator.credentials.create(
        {publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(signUpOptions.body.options)});
    const signedUp = await post('/api/mobile/biometric/register/verify', {credential: signUpCredential.toJSON()});
    done({options, registered, request, signedIn, signedUp});
})().catch(error => done({error: String(error)}));
"""


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in [
        "--headless=new",
        "--no-sandbox",
        "--no-proxy-server",
        "--disable-background-networking",
        "--host-resolver-rules=MAP localhost 127.0.0.1, MAP * ~NOTFOUND",
    ]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()


def account(token):
    request = urllib.request.Request(f"{HALE_URL}/api/v1/account", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def test_register_then_sign_in_with_a_passkey(browser):
    browser.add_virtual_authenticator(
        VirtualAuthenticatorOptions(
            protocol=VirtualAuthenticatorOptions.Protocol.CTAP2,
            transport=VirtualAuthenticatorOptions.Transport.INTERNAL,
            has_resident_key=True,
            has_user_verification=True,
            is_user_verified=True,
        )
    )
    browser.get(f"{HALE_URL}/healthz")
    result = browser.execute_async_script(CEREMONIES, HALE_TOKEN)
    assert "error" not in result, result

    assert result["options"]["status"] == 200
    assert result["options"]["body"]["options"]["rp"]["id"] == "localhost"
    assert result["registered"]["status"] == 200, result["registered"]
    passkey = result["registered"]["body"]["passkey"]
    assert passkey["attestationFormat"] == "none"
    assert passkey["device"]["deviceName"] == "Headless Chromium"

    assert result["request"]["body"]["options"]["allowCredentials"] == []
    assert result["signedIn"]["status"] == 200, result["signedIn"]
    signed_in = result["signedIn"]["body"]
    owner = account(HALE_TOKEN)["id"]
    assert signed_in["accountId"] == owner
    assert account(signed_in["token"])["id"] == owner

    assert result["signedUp"]["status"] == 200, result["signedUp"]
    new_account = result["signedUp"]["body"]["accountId"]
    assert new_account != owner
    assert account(result["signedUp"]["body"]["token"])["id"] == new_account
