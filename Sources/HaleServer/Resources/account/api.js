// The page's calls to /account/api. The session is an HttpOnly cookie the script never sees; every request that
// changes something carries the CSRF token the session answers with.

let csrfToken = '';

export function setCSRFToken(token) {
    csrfToken = token || '';
}

export class APIError extends Error {
    constructor(status, code, message) {
        super(message);
        this.status = status;
        this.code = code;
    }
}

export async function api(method, path, body, extraHeaders = {}) {
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
