"""Fixtures for the account page in headless Chromium: the browser, its WebAuthn virtual authenticator, and the
server under test (HALE_URL, http://localhost:PORT, whose passkeys.origins must include it)."""

import os

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

HALE_URL = os.environ.get("HALE_URL", "")
CHROMIUM = os.environ.get("CHROMIUM_BINARY", "/usr/lib/chromium/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")


def authenticator_options():
    return VirtualAuthenticatorOptions(
        protocol=VirtualAuthenticatorOptions.Protocol.CTAP2,
        transport=VirtualAuthenticatorOptions.Transport.INTERNAL,
        has_resident_key=True,
        has_user_verification=True,
        is_user_verified=True,
    )


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in [
        "--headless=new",
        "--no-sandbox",
        "--no-proxy-server",
        "--disable-background-networking",
        "--window-size=1280,900",
        # localhost is the page's origin; attacker.test stands in for another site in the cross-site check.
        "--host-resolver-rules=MAP localhost 127.0.0.1, MAP attacker.test 127.0.0.1, MAP * ~NOTFOUND",
    ]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()
