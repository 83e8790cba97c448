// Email on the account page: its verified addresses, the recoveries waiting on it, and, signed out, recovery and
// sign-in by a code mailed to a verified address.
import {api, APIError} from './api.js';
import {el, replace, status, when} from './dom.js';

let reload = async () => {};

/// Lists the addresses and any recovery waiting, with what the person can do about each.
export async function renderEmail(refresh) {
    reload = refresh;
    const [emails, recoveries] = await Promise.all([api('GET', 'emails'), api('GET', 'recoveries')]);
    replace('emails', emails.emails.length ? emails.emails.map(emailItem) : [el('li', {}, 'No verified address yet.')]);
    document.getElementById('recoveries-section').hidden = recoveries.recoveries.length === 0;
    replace('recoveries', recoveries.recoveries.map(recoveryItem));
}

function emailItem(email) {
    return el('li', {class: 'item', 'data-email': email.email},
        el('strong', {class: 'name'}, email.email),
        el('span', {class: 'meta'}, `verified ${email.verifiedBy === 'code' ? 'by a code' : `by ${email.verifiedBy}`}`
            + ` · ${when(email.verifiedAt)}`),
        el('button', {type: 'button', class: 'danger', 'aria-label': `Remove ${email.email}`,
            onclick: () => change(() => api('DELETE', `emails/${encodeURIComponent(email.email)}`),
                `Removed ${email.email}.`)}, 'Remove'));
}

const startedBy = {operator: 'Started by an operator', email: 'Started by email', device: 'Asked from a new device',
    social_link: 'A new social sign-in joining by your address'};

function recoveryItem(recovery) {
    const code = el('input', {inputmode: 'numeric', maxlength: 2, size: 3, autocomplete: 'off',
        'aria-label': 'The two digits the new device shows'});
    const opens = recovery.method === 'device' ? 'opens when approved' : `opens ${when(recovery.readyAt)}`;
    return el('li', {class: 'item', 'data-recovery': recovery.id},
        el('strong', {class: 'name'}, startedBy[recovery.method] || recovery.method),
        el('span', {class: 'meta'}, `since ${when(recovery.requestedAt)} · ${opens}`),
        code,
        el('button', {type: 'button', 'aria-label': 'Approve this recovery',
            onclick: () => change(() => api('POST', `recoveries/${recovery.id}/approve`, {pairingCode: code.value.trim()}),
                'Approved: the new device can add its passkey now.')}, 'Approve'),
        el('button', {type: 'button', class: 'danger', 'aria-label': 'Cancel this recovery',
            onclick: () => change(() => api('POST', `recoveries/${recovery.id}/cancel`),
                'Recovery cancelled. Sign out everywhere if you think someone else has your password manager.')},
            'Cancel it'));
}

async function change(action, done) {
    try {
        await action();
        status(done);
        await reload();
    } catch (error) {
        status(error.message || String(error));
    }
}

/// Two steps, one address: the code is mailed, then typed in the second form.
function codeFlow(sendForm, codeForm, addressInput, codeInput, send, verify) {
    let address = '';
    document.getElementById(sendForm).addEventListener('submit', async event => {
        event.preventDefault();
        address = document.getElementById(addressInput).value.trim();
        try {
            await send(address);
            document.getElementById(codeForm).hidden = false;
            document.getElementById(codeInput).focus();
            status(`If ${address} is verified, a code is on its way. It works for 10 minutes.`);
        } catch (error) {
            status(error.message || String(error));
        }
    });
    document.getElementById(codeForm).addEventListener('submit', async event => {
        event.preventDefault();
        try {
            await verify(address, document.getElementById(codeInput).value.trim());
            document.getElementById(codeForm).hidden = true;
            document.getElementById(codeInput).value = '';
        } catch (error) {
            status(error.message || String(error));
        }
    });
}

codeFlow('email-form', 'email-verify-form', 'email-address', 'email-code',
    email => api('POST', 'emails', {email}),
    async (email, code) => {
        await api('POST', 'emails/verify', {email, code});
        document.getElementById('email-address').value = '';
        status(`${email} is verified.`);
        await reload();
    });

/// Signed out: recovery and sign-in by email code. `opened` receives the session the server answers.
export function offerEmailWays({recovering, enter}) {
    codeFlow('recover-email-form', 'recover-email-code-form', 'recover-email', 'recover-email-code',
        email => api('POST', 'recover/email', {email}),
        async (email, code) => {
            const answer = await api('POST', 'recover/email/verify', {email, code});
            if (answer.pairingCode) return waiting(answer);
            recovering(answer);
        });
    document.getElementById('recover-device-form').addEventListener('submit', async event => {
        event.preventDefault();
        try {
            waiting(await api('POST', 'recover/device', {email: document.getElementById('recover-device-email').value}));
        } catch (error) {
            status(error.message || String(error));
        }
    });
    codeFlow('email-sign-in-form', 'email-sign-in-code-form', 'email-sign-in-address', 'email-sign-in-code',
        email => api('POST', 'sign-in/email/code', {email}),
        async (email, code) => enter(await api('POST', 'sign-in/email', {email, code})));
    document.getElementById('recover-claim').addEventListener('click', async () => {
        try {
            recovering(await api('POST', 'recover/claim'));
            document.getElementById('recover-waiting').hidden = true;
        } catch (error) {
            if (error instanceof APIError && error.code !== 'RECOVERY_PENDING') {
                await api('DELETE', 'recover/claim');
                document.getElementById('recover-waiting').hidden = true;
            }
            status(error.message || String(error));
        }
    });
    api('GET', 'recover/waiting').then(held => {
        if (held.held) waiting(null);
    }).catch(() => {});
}

/// The recovery this browser holds: when it opens, and the code a signed-in device approves it with.
function waiting(recovery) {
    document.getElementById('recover-waiting').hidden = false;
    const approve = recovery && `On a device where you are signed in, approve it with the code ${recovery.pairingCode}.`;
    document.getElementById('recover-waiting-text').textContent = !recovery
        ? 'This browser started a recovery of your account. Continue it once it opens.'
        : recovery.readyAt
            ? `Your recovery opens ${when(recovery.readyAt)}: your devices and addresses were told, and can cancel it`
                + ` until then. ${approve} Or come back to this browser then and continue.`
            : `${approve} Then continue here.`;
    status('Recovery started.');
}
