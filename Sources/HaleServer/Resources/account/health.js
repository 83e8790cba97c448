// Health consent, the activity chart (from the statistics API: by day, ISO week or month, in the person's time
// zone), connections and recent syncs.
import {api} from './api.js';
import {confirmAction, el, replace, status, svg, when} from './dom.js';
import {renderImports} from './imports.js';

const platforms = {apple: 'Apple Health', google: 'Google Fit', health_connect: 'Health Connect'};
const permissions = {
    steps: 'Steps', distance: 'Distance', calories: 'Calories', active_minutes: 'Active minutes',
    workouts: 'Workouts', oxygen_saturation: 'Blood oxygen',
};
const metrics = {
    steps: {label: 'Steps', unit: 'steps', value: item => item.steps},
    distance: {label: 'Distance', unit: 'km', value: item => item.distance / 1000},
    calories: {label: 'Calories', unit: 'kcal', value: item => item.calories},
    duration: {label: 'Active minutes', unit: 'minutes', value: item => item.duration / 60},
};
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
let reload = async () => {};

export async function renderHealth(refresh) {
    reload = refresh;
    const [consent, connections, logs] = await Promise.all([
        api('GET', 'consent'), api('GET', 'health/connections'), api('GET', 'health/sync-logs?limit=10')]);
    renderConsent(consent.consent);
    replace('connections', connections.connections.length
        ? connections.connections.map(connection => el('li', {class: 'item'},
            el('strong', {class: 'name'}, connection.provider),
            el('span', {class: 'meta'}, `${connection.isActive ? 'connected' : 'disconnected'} · last sync ${when(connection.lastSyncAt)}`)))
        : [el('li', {}, 'No connections.')]);
    replace('sync-logs', logs.syncLogs.length
        ? logs.syncLogs.map(log => el('li', {class: 'item'},
            el('strong', {class: 'name'}, `${log.provider}, ${when(log.startedAt)}`),
            el('span', {class: 'meta'}, `${log.status} · ${log.recordsInserted} new, ${log.recordsUpdated} updated, `
                + `${log.recordsDeduplicated} already here, ${log.recordsRejected} rejected`)))
        : [el('li', {}, 'No syncs yet.')]);
    await Promise.all([renderChart(), renderImports(refresh)]);
}

function renderConsent(grants) {
    const granted = new Set(grants.filter(grant => !grant.revokedAt).map(grant => `${grant.platform}/${grant.permission}`));
    replace('consent', Object.entries(platforms).map(([platform, platformName]) => el('fieldset', {class: 'platform'},
        el('legend', {}, platformName),
        el('ul', {class: 'grants'}, Object.entries(permissions).map(([permission, name]) => {
            const on = granted.has(`${platform}/${permission}`);
            return el('li', {'data-consent': `${platform}/${permission}`},
                el('span', {}, `${name}: ${on ? 'shared' : 'not shared'}`), ' ',
                el('button', {type: 'button', class: on ? 'danger' : '', 'aria-label': `${on ? 'Stop sharing' : 'Share'} ${name} from ${platformName}`,
                    onclick: () => (on ? revoke : grant)(platform, permission, name, platformName)},
                on ? 'Stop sharing' : 'Share'));
        })))));
}

async function grant(platform, permission, name, platformName) {
    try {
        await api('POST', 'consent', {platform, permissions: [permission]});
        status(`${name} from ${platformName} is shared.`);
        await reload();
    } catch (error) {
        status(error.message);
    }
}

async function revoke(platform, permission, name, platformName) {
    if (!await confirmAction(`Stop sharing ${name.toLowerCase()} from ${platformName}?`,
        `Every ${name.toLowerCase()} record from ${platformName} stored here, and the daily totals made from them, `
            + 'are deleted now, and no more are accepted until you share them again.',
        'Stop sharing and delete')) return;
    try {
        await api('DELETE', `consent/${platform}/${permission}`);
        status(`${name} from ${platformName} is no longer shared; its data was deleted.`);
        await reload();
    } catch (error) {
        status(error.message);
    }
}

const iso = date => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/// The range and grouping of each view, ending today in the person's time zone.
export function range(period, today = new Date()) {
    const start = new Date(today.getFullYear(), today.getMonth(), today.getDate());
    if (period === 'week') {
        start.setDate(start.getDate() - 6);
        return {startDate: iso(start), endDate: iso(today), period: 'day'};
    }
    if (period === 'month') {
        start.setDate(start.getDate() - ((start.getDay() + 6) % 7) - 28);
        return {startDate: iso(start), endDate: iso(today), period: 'week'};
    }
    start.setDate(1);
    start.setMonth(start.getMonth() - 11);
    return {startDate: iso(start), endDate: iso(today), period: 'month'};
}

async function renderChart() {
    const measure = document.getElementById('chart-metric').value;
    const metric = metrics[measure];
    const view = document.getElementById('chart-period').value;
    const query = range(view);
    const statistics = await api('GET',
        `health/statistics?startDate=${query.startDate}&endDate=${query.endDate}&period=${query.period}`,
        undefined, {'X-Timezone': timeZone});
    // By day, each day names the source that counted: the attested upload, or the highest-ranked synced source.
    const byDay = query.period === 'day';
    const sources = byDay
        ? await api('GET', `health/sources?startDate=${query.startDate}&endDate=${query.endDate}&measure=${measure}`)
        : {days: []};
    const counted = new Map(sources.days.map(day => [day.date, day.name]));
    const items = statistics.items.map(item => ({label: item.date, value: metric.value(item), source: counted.get(item.date)}));
    const total = metric.value(statistics.summary);
    const caption = `${metric.label} from ${query.startDate} to ${query.endDate}, by ${query.period}: `
        + `${format(total)} ${metric.unit} in all.`;
    document.getElementById('chart-caption').textContent = caption;
    document.getElementById('chart-table-unit').textContent = `${metric.label} (${metric.unit})`;
    replace('chart', [barChart(items, metric, caption)]);
    document.getElementById('chart-table-source').hidden = !byDay;
    document.querySelector('#chart-table tbody').replaceChildren(...items.map(item =>
        el('tr', {'data-label': item.label}, el('th', {scope: 'row'}, item.label), el('td', {}, format(item.value)),
            byDay ? el('td', {class: 'source'}, item.source || '—') : null)));
}

const format = value => Number.isInteger(value) ? value.toLocaleString() : value.toLocaleString(undefined, {maximumFractionDigits: 2});

/// A bar chart that scales to its box: axis with a rounded maximum, a label under every bar (every other one when
/// there are many), the value in each bar's tooltip, and the caption as its accessible name.
function barChart(items, metric, caption) {
    // Drawn at the box's own width, so text stays 13 px from a 320 px phone to a desktop.
    const box = document.getElementById('chart');
    // Before the page is shown the box has no size: estimate it from the window and the page's margins.
    const estimate = Math.min(848, document.documentElement.clientWidth - 66);
    const width = Math.max(280, Math.min(900, box.clientWidth || estimate)), height = box.clientHeight || 260;
    const left = 64, bottom = 40, top = 16, right = 8;
    const maximum = niceCeiling(Math.max(1, ...items.map(item => item.value)));
    const plotWidth = width - left - right, plotHeight = height - top - bottom;
    const step = plotWidth / Math.max(1, items.length);
    const y = value => top + plotHeight - (value / maximum) * plotHeight;
    const ticks = [0, 0.25, 0.5, 0.75, 1].map(fraction => fraction * maximum);
    const every = Math.max(1, Math.ceil(items.length * 34 / plotWidth));
    return svg('svg', {viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': caption, class: 'bars'},
        ticks.map(tick => svg('g', {class: 'tick'},
            svg('line', {x1: left, x2: width - right, y1: y(tick), y2: y(tick)}),
            svg('text', {x: left - 6, y: y(tick) + 4, 'text-anchor': 'end'}, format(tick)))),
        svg('text', {x: 12, y: top + plotHeight / 2, class: 'unit', transform: `rotate(-90 12 ${top + plotHeight / 2})`,
            'text-anchor': 'middle'}, metric.unit),
        items.map((item, index) => svg('g', {class: 'bar'},
            svg('rect', {x: left + index * step + step * 0.15, y: y(item.value), width: step * 0.7,
                height: Math.max(0, top + plotHeight - y(item.value))},
                svg('title', {}, `${item.label}: ${format(item.value)} ${metric.unit}${item.source ? `, from ${item.source}` : ''}`)),
            index % every === 0
                ? svg('text', {x: left + index * step + step / 2, y: height - bottom + 16, 'text-anchor': 'middle'}, shortLabel(item.label))
                : null)));
}

function niceCeiling(value) {
    const magnitude = 10 ** Math.floor(Math.log10(value));
    return [1, 2, 2.5, 5, 10].map(factor => factor * magnitude).find(candidate => candidate >= value);
}

/// "2026-11-26" as "26", "2026-W48" as "W48", "2026-11" as "Nov".
function shortLabel(label) {
    if (/^\d{4}-W\d{2}$/.test(label)) return label.slice(5);
    if (/^\d{4}-\d{2}$/.test(label)) return new Date(`${label}-01T12:00:00`).toLocaleString(undefined, {month: 'short'});
    return String(Number(label.slice(8)));
}

let resizing = 0;
window.addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => { if (!document.getElementById('signed-in').hidden) renderChart().catch(() => {}); }, 200);
});
document.getElementById('chart-metric').addEventListener('change', () => renderChart().catch(error => status(error.message)));
document.getElementById('chart-period').addEventListener('change', () => renderChart().catch(error => status(error.message)));
