// The account's audit trail in words: "New device signed in: Pixel 8, 12 Nov 14:03".
import {api} from './api.js';
import {el, replace, when} from './dom.js';

const sentences = {
    device_registered: () => 'Device key registered',
    device_key_new_ip_range: () => 'Device key used from a new network',
    refresh_token_reuse_detected: () => 'A copied sign-in token was used; that session was ended',
    bound_refresh_refused: () => 'A sign-in token was used away from the app it belongs to; that session was ended',
    bound_refresh_outage_grace: () => 'A session was renewed without proof from the app while Google\'s Play Integrity service was out',
    device_deactivated: () => 'Device deactivated',
    device_deleted: () => 'Device deleted',
    social_identity_linked: details => `Signed in with ${provider(details.provider || details.signInMethod)} for the first time`,
    passkey_registered: () => 'Passkey added',
    passkey_clone_suspected: () => 'A passkey sign-in looked like a cloned authenticator',
    new_device_sign_in: details => `New device signed in with ${method(details.signInMethod)}`,
    apple_consent_revoked: () => 'Sign in with Apple was turned off for this app',
    apple_identity_unlinked: () => 'Apple account unlinked',
    account_deleted: () => 'Account deleted',
    health_consent_granted: details => `Started sharing ${list(details.permissions)} from ${platform(details.platform)}`,
    health_consent_revoked: details => `Stopped sharing ${list(details.permissions)} from ${platform(details.platform)}; its data was deleted`,
    health_data_deleted: () => 'All health data deleted',
    confirmation_approved: () => 'A request was approved on a phone',
    confirmation_denied: () => 'A request was denied on a phone',
    personal_access_token_revoked: () => 'Access token revoked',
    signed_out_everywhere: () => 'Signed out everywhere',
};

const provider = name => ({oauth_google: 'Google', oauth_apple: 'Apple', oauth_facebook: 'Facebook',
    google: 'Google', apple: 'Apple', facebook: 'Facebook'})[name] || name || 'a social account';
const method = name => ({passkey: 'a passkey', device_key: 'a device key'})[name] || provider(name);
const platform = name => ({apple: 'Apple Health', google: 'Google Fit', health_connect: 'Health Connect',
    ios: 'the iOS app', android: 'the Android app'})[name] || name;
const list = text => (text || '').split(',').filter(Boolean).map(item => item.replace(/_/g, ' ')).join(', ') || 'data';

export async function renderEvents() {
    const [audit, devices] = await Promise.all([api('GET', 'audit?limit=50'), api('GET', 'devices')]);
    const names = new Map(devices.devices.map(device => [device.id, device.name]));
    replace('events', audit.events.length
        ? audit.events.map(event => {
            const sentence = (sentences[event.type] || (() => event.type.replace(/_/g, ' ')))(event.details || {});
            const device = event.deviceId && names.get(event.deviceId);
            return el('li', {class: 'item', 'data-event': event.type},
                el('span', {}, `${sentence}${device ? `: ${device}` : ''}, ${when(event.createdAt)}`));
        })
        : [el('li', {}, 'Nothing yet.')]);
}
