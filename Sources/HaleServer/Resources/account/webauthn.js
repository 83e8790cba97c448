// WebAuthn in the browser, from the server's JSON options to the JSON the server verifies. Uses the browser's own
// JSON helpers where it has them (WebAuthn Level 3), and converts by hand where it does not.

const decode = text => {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - base64.length % 4) % 4));
    return Uint8Array.from(binary, character => character.charCodeAt(0)).buffer;
};

const encode = buffer => {
    const bytes = new Uint8Array(buffer);
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

function creationOptions(json) {
    if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
    return Object.assign({}, json, {
        challenge: decode(json.challenge),
        user: Object.assign({}, json.user, {id: decode(json.user.id)}),
        excludeCredentials: (json.excludeCredentials || []).map(c => Object.assign({}, c, {id: decode(c.id)})),
    });
}

function requestOptions(json) {
    if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
    return Object.assign({}, json, {
        challenge: decode(json.challenge),
        allowCredentials: (json.allowCredentials || []).map(c => Object.assign({}, c, {id: decode(c.id)})),
    });
}

function toJSON(credential) {
    if (typeof credential.toJSON === 'function') return credential.toJSON();
    const response = credential.response;
    const json = {
        id: credential.id,
        rawId: encode(credential.rawId),
        type: credential.type,
        clientExtensionResults: credential.getClientExtensionResults(),
        authenticatorAttachment: credential.authenticatorAttachment || undefined,
        response: {clientDataJSON: encode(response.clientDataJSON)},
    };
    if (response.attestationObject) {
        json.response.attestationObject = encode(response.attestationObject);
        json.response.transports = response.getTransports ? response.getTransports() : [];
    } else {
        json.response.authenticatorData = encode(response.authenticatorData);
        json.response.signature = encode(response.signature);
        if (response.userHandle) json.response.userHandle = encode(response.userHandle);
    }
    return json;
}

/// Creates a passkey for the server's creation options.
export async function createPasskey(options) {
    return toJSON(await navigator.credentials.create({publicKey: creationOptions(options)}));
}

/// Asks for an assertion; `mediation: 'conditional'` offers the passkeys in the username field's autofill.
export async function getAssertion(options, {mediation, signal} = {}) {
    const request = {publicKey: requestOptions(options)};
    if (mediation) request.mediation = mediation;
    if (signal) request.signal = signal;
    return toJSON(await navigator.credentials.get(request));
}

export async function conditionalMediationAvailable() {
    return Boolean(window.PublicKeyCredential && PublicKeyCredential.isConditionalMediationAvailable
        && await PublicKeyCredential.isConditionalMediationAvailable());
}

/// A name for this browser's device record, such as "Chrome on Linux".
export function browserName() {
    const agent = navigator.userAgent;
    const browser = /Edg\//.test(agent) ? 'Edge' : /Firefox\//.test(agent) ? 'Firefox'
        : /Chrome\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : 'Browser';
    const system = /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS'
        : /Mac OS X/.test(agent) ? 'macOS' : /Windows/.test(agent) ? 'Windows' : /Linux/.test(agent) ? 'Linux' : '';
    return system ? `${browser} on ${system}` : browser;
}
