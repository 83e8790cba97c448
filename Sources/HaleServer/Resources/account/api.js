// The page's calls to /account/api. The session is an HttpOnly cookie the script never sees; every request that
// changes something carries the CSRF token the session answers with.

let csrfToken = '';
let stepUp = null;

export function setCSRFToken(token) {
    csrfToken = token || '';
}

/// What to do when the server asks for a fresh sign-in (FRESH_SIGN_IN_REQUIRED): a step-up ceremony, after which the
/// request is sent once more.
export function setStepUp(handler) {
    stepUp = handler;
}

export class APIError extends Error {
    constructor(status, code, message) {
        super(message);
        this.status = status;
        this.code = code;
    }
}

/// Uploads a file as the body of a POST, reporting the share sent so far: fetch cannot tell upload progress.
export function upload(path, file, onProgress, extraHeaders = {}) {
    return new Promise((resolve, reject) => {
        const request = new XMLHttpRequest();
        request.open('POST', '/account/api/' + path);
        request.setRequestHeader('Accept', 'application/json');
        request.setRequestHeader('X-CSRF-Token', csrfToken);
        for (const [name, value] of Object.entries(extraHeaders)) request.setRequestHeader(name, value);
        request.upload.addEventListener('progress', event => {
            if (event.lengthComputable) onProgress(event.loaded / event.total);
        });
        request.addEventListener('load', () => {
            let json = {};
            try { json = request.responseText ? JSON.parse(request.responseText) : {}; } catch { json = {}; }
            if (request.status >= 200 && request.status < 300) return resolve(json);
            const error = json.error || {};
            reject(new APIError(request.status, error.code || 'ERROR', error.message || `HTTP ${request.status}`));
        });
        request.addEventListener('error', () => reject(new APIError(0, 'NETWORK', 'The upload was cut off.')));
        request.send(file);
    });
}

export async function api(method, path, body, extraHeaders = {}) {
    try {
        return await send(method, path, body, extraHeaders);
    } catch (error) {
        if (!(error instanceof APIError) || error.code !== 'FRESH_SIGN_IN_REQUIRED' || !stepUp) throw error;
        await stepUp();
        return await send(method, path, body, extraHeaders);
    }
}

async function send(method, path, body, extraHeaders) {
    const headers = Object.assign({Accept: 'application/json'}, extraHeaders);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
    const response = await fetch('/account/api/' + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    if (!response.ok) {
        const error = json.error || {};
        throw new APIError(response.status, error.code || 'ERROR', error.message || response.statusText);
    }
    return json;
}
