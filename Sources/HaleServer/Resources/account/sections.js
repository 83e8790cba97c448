// Passkeys, devices, sessions and access tokens: each listed with what a person can do about it.
import {api, APIError} from './api.js';
import {createPasskey, browserName} from './webauthn.js';
import {confirmAction, el, replace, status, when} from './dom.js';

let reload = async () => {};

export async function renderAccount(refresh) {
    reload = refresh;
    const [passkeys, devices, sessions, tokens, recovery] = await Promise.all([
        api('GET', 'passkeys'), api('GET', 'devices'), api('GET', 'sessions'), api('GET', 'tokens'),
        api('GET', 'recovery-codes')]);
    document.getElementById('recovery-remaining').textContent = recovery.remaining
        ? `${recovery.remaining} of 10 codes left.` : 'No recovery codes yet.';
    replace('passkeys', passkeys.passkeys.map(passkeyItem));
    replace('devices', devices.devices.length ? devices.devices.map(deviceItem) : [el('li', {}, 'No devices yet.')]);
    replace('sessions', sessions.sessions.map(sessionItem));
    replace('tokens', tokens.tokens.length ? tokens.tokens.map(tokenItem) : [el('li', {}, 'No access tokens.')]);
}

/// Runs a change, says what happened, and shows the account as it now is.
async function act(change, done) {
    try {
        await change();
        status(done);
        await reload();
    } catch (error) {
        status(error.message || String(error));
    }
}

/// A name with a Rename button that turns into a small form in place.
function renameable(label, current, save) {
    const name = el('strong', {class: 'name'}, current);
    const button = el('button', {type: 'button', 'aria-label': `Rename ${label} ${current}`}, 'Rename');
    const wrapper = el('span', {class: 'renameable'}, name, ' ', button);
    button.addEventListener('click', () => {
        const input = el('input', {value: current, maxlength: 100, 'aria-label': `New name for ${label} ${current}`});
        const form = el('form', {class: 'row'}, input, el('button', {type: 'submit'}, 'Save'),
            el('button', {type: 'button', onclick: () => form.replaceWith(wrapper)}, 'Cancel'));
        form.addEventListener('submit', event => {
            event.preventDefault();
            act(() => save(input.value), `Renamed to ${input.value.trim()}.`);
        });
        wrapper.replaceWith(form);
        input.focus();
    });
    return wrapper;
}

function passkeyItem(passkey) {
    const kind = passkey.backupEligible ? 'Synced' : 'Device-bound';
    const provider = passkey.provider ? `${passkey.provider} · ` : '';
    const remove = async () => {
        try {
            await api('DELETE', `passkeys/${passkey.id}`);
        } catch (error) {
            if (!(error instanceof APIError) || error.code !== 'LAST_SIGN_IN_METHOD') throw error;
            if (!await confirmAction('Delete your last passkey?',
                'This is your only way to sign in. Without it you cannot sign in to this account again.',
                'Delete it anyway')) return;
            await api('DELETE', `passkeys/${passkey.id}?confirm=true`);
        }
    };
    return el('li', {class: 'item', 'data-passkey': passkey.id},
        renameable('passkey', passkey.name, name => api('PATCH', `passkeys/${passkey.id}`, {name})),
        el('span', {class: 'meta'}, `${provider}${kind} · added ${when(passkey.createdAt)} · last used ${when(passkey.lastUsedAt)}`),
        passkey.suspectedCloneAt
            ? el('span', {class: 'warning'}, `Possibly copied: a sign-in on ${when(passkey.suspectedCloneAt)} looked like a cloned authenticator.`)
            : null,
        el('button', {type: 'button', class: 'danger', 'aria-label': `Delete passkey ${passkey.name}`,
            onclick: () => act(remove, `Deleted passkey ${passkey.name}.`)}, 'Delete'));
}

const methodNames = {passkey: 'passkey', device_key: 'device key', personal_access_token: 'access token'};
const methodName = method => methodNames[method] || method.replace(/^oauth_/, '').replace(/_/g, ' ');

function deviceItem(device) {
    const push = device.pushTokens.length ? 'push on' : 'push off';
    const methods = device.signInMethods.map(methodName).join(', ') || 'no sign-in';
    const revoke = verb => api(verb === 'Deactivate' ? 'POST' : 'DELETE',
        verb === 'Deactivate' ? `devices/${device.id}/deactivate` : `devices/${device.id}`);
    const ask = verb => async () => {
        if (!await confirmAction(`${verb} ${device.name}?`,
            'It is signed out, its device keys stop working and passkeys made on it only for it are deleted.',
            verb)) return;
        await act(() => revoke(verb), `${verb === 'Deactivate' ? 'Deactivated' : 'Deleted'} ${device.name}.`);
    };
    return el('li', {class: 'item', 'data-device': device.id},
        renameable('device', device.name, deviceName => api('PATCH', `devices/${device.id}`, {deviceName})),
        el('span', {class: 'meta'},
            `${device.deviceType} · ${device.isActive ? 'active' : 'deactivated'} · signs in with ${methods} · ${push} · last used ${when(device.lastUsedAt)}`),
        device.isActive ? el('button', {type: 'button', onclick: ask('Deactivate')}, 'Deactivate') : null,
        el('button', {type: 'button', class: 'danger', onclick: ask('Delete')}, 'Delete'));
}

function sessionItem(session) {
    const where = session.deviceName ? `${session.deviceName}${session.platform ? ` (${session.platform})` : ''}` : 'Unknown device';
    return el('li', {class: 'item', 'data-session': session.id},
        el('strong', {class: 'name'}, where),
        session.current ? el('span', {class: 'badge'}, 'This browser') : null,
        el('span', {class: 'meta'},
            `${methodName(session.signInMethod)} · since ${when(session.createdAt)} · last active ${when(session.lastUsedAt)}`),
        el('button', {type: 'button', 'aria-label': `Sign out ${where}`, onclick: () => session.current
            ? api('POST', 'sign-out').then(() => location.reload())
            : act(() => api('DELETE', `sessions/${session.id}`), `Signed out ${where}.`)}, 'Sign out'));
}

function tokenItem(token) {
    return el('li', {class: 'item', 'data-token': token.id},
        el('strong', {class: 'name'}, token.name),
        el('span', {class: 'meta'},
            `created ${when(token.createdAt)} · last used ${when(token.lastUsedAt)}${token.expiresAt ? ` · expires ${when(token.expiresAt)}` : ''}`),
        el('button', {type: 'button', class: 'danger', 'aria-label': `Revoke token ${token.name}`,
            onclick: () => act(() => api('DELETE', `tokens/${token.id}`), `Revoked ${token.name}.`)}, 'Revoke'));
}

/// New recovery codes, shown this once; they replace any made before.
async function makeRecoveryCodes() {
    const remaining = document.getElementById('recovery-remaining').textContent;
    if (!remaining.startsWith('No ') && !await confirmAction('Make new recovery codes?',
        'The codes you have now stop working.', 'Make new codes')) return;
    await act(async () => {
        const {codes} = await api('POST', 'recovery-codes');
        const list = document.getElementById('recovery-codes');
        replace('recovery-codes', codes.map(code => el('li', {}, el('code', {}, code))));
        list.hidden = false;
    }, 'Save these recovery codes now: they are not shown again.');
}

document.getElementById('make-recovery-codes').addEventListener('click', makeRecoveryCodes);

document.getElementById('add-passkey').addEventListener('click', () => act(async () => {
    const {options} = await api('POST', 'passkeys/options');
    await api('POST', 'passkeys', {credential: await createPasskey(options), browser: {deviceName: browserName()}});
}, 'Passkey added.'));
