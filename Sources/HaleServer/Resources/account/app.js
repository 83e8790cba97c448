// The account page: signs in and up with passkeys, then shows what the account holds and lets the person manage it.
import {api, APIError, setCSRFToken, setStepUp} from './api.js';
import {browserName, conditionalMediationAvailable, createPasskey, getAssertion} from './webauthn.js';
import {confirmAction, status} from './dom.js';
import {renderAccount} from './sections.js';
import {renderHealth} from './health.js';
import {renderEvents} from './events.js';
import {offerEmailWays, renderEmail} from './email.js';

const browser = () => ({deviceName: browserName()});
let conditional = null;

function show(signedIn, recovering = false) {
    document.getElementById('loading').hidden = true;
    document.getElementById('signed-out').hidden = signedIn || recovering;
    document.getElementById('recovering').hidden = !recovering;
    document.getElementById('signed-in').hidden = !signedIn;
    document.getElementById('who').hidden = !signedIn;
}

/// Shows the account as it now is; `aria-busy` on the page's main region while it loads.
export async function refresh() {
    const main = document.getElementById('main');
    main.setAttribute('aria-busy', 'true');
    try {
        await Promise.all([renderAccount(refresh), renderEmail(refresh), renderHealth(refresh), renderEvents()]);
    } finally {
        main.removeAttribute('aria-busy');
    }
}

/// Loads everything before showing it, so nothing moves once the account appears.
async function enter(session) {
    setCSRFToken(session.csrfToken);
    document.getElementById('who-name').textContent = session.account.email || 'Signed in';
    await refresh();
    show(true);
}

async function start() {
    try {
        const session = await api('GET', 'session');
        if (session.recovery) return recovering(session);
        await enter(session);
    } catch (error) {
        if (!(error instanceof APIError) || error.status !== 401) status(error.message);
        show(false);
        offerAutofill();
    }
}

/// Passkey autofill: a conditional request that the browser answers when the person picks a passkey in the
/// username field's suggestions.
///
/// It is marked as offered before anything is awaited, so a sign-in or sign-up started while the offer is still being
/// prepared stops it too, rather than meeting it as a second WebAuthn request the browser refuses.
async function offerAutofill() {
    const controller = new AbortController();
    const started = Date.now();
    conditional = {controller, pending: Promise.resolve()};
    if (!await conditionalMediationAvailable()) return;
    const ceremony = await api('POST', 'sign-in/options');
    if (controller.signal.aborted) return;
    const pending = getAssertion(ceremony.options, {mediation: 'conditional', signal: controller.signal})
        .then(credential => finishSignIn(ceremony.ceremony, credential))
        .catch(error => autofillEnded(error, controller, Date.now() - started));
    conditional = {controller, pending};
}

/// Autofill waits in the background, so how it ends is no news to the person: stopped because they began a sign-in
/// or a sign-up (browsers reject it then with AbortError or NotAllowedError), or timed out unused, when it is offered
/// again (not at once after a quick refusal, which would only repeat). Only another failure, such as the server's
/// answer to a passkey they picked, is shown.
function autofillEnded(error, controller, waitedMilliseconds) {
    if (controller.signal.aborted) return;
    if (error.name === 'NotAllowedError') {
        if (waitedMilliseconds > 10000) offerAutofill();
        return;
    }
    status(message(error));
}

async function stopAutofill() {
    if (!conditional) return;
    const {controller, pending} = conditional;
    conditional = null;
    controller.abort();
    await pending;
}

/// A recovery session: the page offers only to add a passkey, which ends it.
function recovering(session) {
    setCSRFToken(session.csrfToken);
    show(false, true);
}

async function recover(event) {
    event.preventDefault();
    await stopAutofill();
    try {
        recovering(await api('POST', 'recover', {code: document.getElementById('recover-code').value}));
        status('Recovery code accepted.');
    } catch (error) {
        status(message(error));
        offerAutofill();
    }
}

async function addRecoveryPasskey() {
    try {
        const {options} = await api('POST', 'passkeys/options');
        await api('POST', 'passkeys', {credential: await createPasskey(options), browser: browser()});
        show(false);
        status('Passkey added. Sign in with it now, then look at your devices and sign out any that are not yours.');
        offerAutofill();
    } catch (error) {
        status(message(error));
    }
}

async function finishSignIn(ceremony, credential) {
    const session = await api('POST', 'sign-in', {ceremony, credential, browser: browser()});
    status('Signed in.');
    await enter(session);
}

async function signIn(event) {
    event.preventDefault();
    await stopAutofill();
    try {
        const ceremony = await api('POST', 'sign-in/options');
        await finishSignIn(ceremony.ceremony, await getAssertion(ceremony.options));
    } catch (error) {
        status(message(error));
        offerAutofill();
    }
}

async function signUp(event) {
    event.preventDefault();
    await stopAutofill();
    const displayName = document.getElementById('sign-up-name').value;
    const email = document.getElementById('sign-up-email').value.trim();
    try {
        const {options} = await api('POST', 'sign-up/options', {displayName, email: email || undefined, browser: browser()});
        const session = await api('POST', 'sign-up', {credential: await createPasskey(options), browser: browser()});
        status('Your account is ready.');
        await enter(session);
    } catch (error) {
        status(message(error));
    }
}

async function signOut(everywhere) {
    if (everywhere && !await confirmAction(
        'Sign out everywhere?',
        'Every app, browser and token signed in to this account is signed out, this page included.',
        'Sign out everywhere')) return;
    const removeRecent = everywhere && document.getElementById('remove-recent').checked;
    await api('POST', everywhere ? 'sign-out-everywhere' : 'sign-out',
        removeRecent ? {removeCredentialsAddedWithinHours: 24} : undefined);
    location.reload();
}

async function deleteAccount() {
    if (!await confirmAction(
        'Delete your account?',
        'Your passkeys, devices, sessions, tokens, consent and all your health data are deleted for good. '
            + 'Download your data first if you want to keep it. You will be asked for your passkey.',
        'Delete my account')) return;
    try {
        const ceremony = await api('POST', 'account/delete/options');
        const credential = await getAssertion(ceremony.options);
        await api('POST', 'account/delete', {ceremony: ceremony.ceremony, credential});
        show(false);
        status('Your account has been deleted.');
    } catch (error) {
        status(message(error));
    }
}

export function message(error) {
    if (error.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out.';
    return error.message || String(error);
}

// Adding or removing a passkey or a device, and signing out everywhere, need a recent sign-in: after a few minutes
// on the page the person proves they are there with a passkey, and the change goes ahead.
setStepUp(async () => {
    status('Confirm with your passkey to make this change.');
    const ceremony = await api('POST', 'step-up/options');
    const credential = await getAssertion(ceremony.options);
    await api('POST', 'step-up', {ceremony: ceremony.ceremony, credential});
    status('');
});

document.getElementById('sign-in-form').addEventListener('submit', signIn);
document.getElementById('sign-up-form').addEventListener('submit', signUp);
document.getElementById('recover-form').addEventListener('submit', recover);
document.getElementById('recovery-add-passkey').addEventListener('click', addRecoveryPasskey);
offerEmailWays({recovering, enter: async session => {
    status('Signed in.');
    await enter(session);
}});
document.getElementById('sign-out').addEventListener('click', () => signOut(false));
document.getElementById('sign-out-everywhere').addEventListener('click', () => signOut(true));
document.getElementById('delete-account').addEventListener('click', deleteAccount);
start();
