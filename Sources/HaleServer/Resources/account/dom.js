// Small DOM helpers: every piece of data reaches the page as text nodes or attributes, never as markup.

export function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
        if (value === undefined || value === null || value === false) continue;
        if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
        else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
        if (child === undefined || child === null || child === false) continue;
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
}

export function svg(tag, attributes = {}, ...children) {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    for (const child of children.flat()) {
        if (child === undefined || child === null) continue;
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
}

export function replace(id, children) {
    document.getElementById(id).replaceChildren(...children);
}

const dateTime = new Intl.DateTimeFormat(undefined, {day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit'});
const dateTimeWithYear = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium', timeStyle: 'short'});

/// A time in the person's own time zone: "12 Nov, 14:03" this year, with the year otherwise.
export function when(iso) {
    if (!iso) return 'never';
    const date = new Date(iso);
    return (date.getFullYear() === new Date().getFullYear() ? dateTime : dateTimeWithYear).format(date);
}

export function status(text) {
    document.getElementById('status').textContent = text;
}

/// Asks in a modal dialog; resolves true when the person confirms.
export function confirmAction(title, text, action) {
    const dialog = document.getElementById('confirm');
    document.getElementById('confirm-title').textContent = title;
    document.getElementById('confirm-text').textContent = text;
    document.getElementById('confirm-ok').textContent = action;
    dialog.returnValue = '';
    return new Promise(resolve => {
        dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), {once: true});
        dialog.showModal();
    });
}
