// Importing the export the Health app writes ("Export All Health Data": export.zip): the upload with its progress,
// then the server's background import, followed until it ends, also after the page is reloaded.
import {api, upload} from './api.js';
import {status, when} from './dom.js';

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const phases = {checking: 'Checking the file', importing: 'Importing'};
let following = null;
let reload = async () => {};

/// Shows the newest import; follows it while it is queued or running.
export async function renderImports(refresh) {
    reload = refresh;
    const {imports} = await api('GET', 'health/imports');
    if (imports.length) show(imports[0]);
    if (imports.length && unfinished(imports[0]) && following !== imports[0].id) follow(imports[0].id);
}

const unfinished = item => ['uploading', 'queued', 'running'].includes(item.status);

function show(item) {
    document.getElementById('import-status').hidden = false;
    const bar = document.getElementById('import-progress');
    const text = document.getElementById('import-text');
    const summary = item.summary;
    const skipped = Object.values(summary.skippedByType).reduce((sum, count) => sum + count, 0)
        + summary.skippedOtherTypes
        + Object.values(summary.skippedWithoutConsent).reduce((sum, count) => sum + count, 0);
    const rejected = Object.values(summary.rejected).reduce((sum, count) => sum + count, 0);
    const counts = `${summary.imported.toLocaleString()} imported, ${summary.deduplicated.toLocaleString()} already here, `
        + `${skipped.toLocaleString()} not taken, ${rejected.toLocaleString()} refused`;
    bar.value = item.status === 'completed' ? 1 : (item.progress ? item.progress.fraction : 0);
    if (item.status === 'uploading') {
        text.textContent = 'Uploading the export.';
    } else if (item.status === 'queued') {
        text.textContent = 'Uploaded; waiting for the import to start.';
    } else if (item.status === 'running') {
        const phase = item.progress ? phases[item.progress.phase] || item.progress.phase : 'Importing';
        const read = item.progress ? item.progress.recordsRead.toLocaleString() : '0';
        text.textContent = `${phase}: ${read} records read, ${Math.round(bar.value * 100)}% of the file.`;
    } else if (item.status === 'completed') {
        text.textContent = `Import finished ${when(item.completedAt)}: ${summary.recordsRead.toLocaleString()} records `
            + `read; ${counts}.`;
    } else {
        text.textContent = `The import failed: ${item.error ? item.error.message : 'unknown error'}`;
    }
}

async function follow(id) {
    following = id;
    while (following === id) {
        let item;
        try {
            item = (await api('GET', `health/imports/${id}`)).import;
        } catch (error) {
            status(error.message);
            following = null;
            return;
        }
        show(item);
        if (!unfinished(item)) {
            following = null;
            if (item.status === 'completed') await reload();
            return;
        }
        await new Promise(resolve => setTimeout(resolve, 1000));
    }
}

async function submit(event) {
    event.preventDefault();
    const input = document.getElementById('import-file');
    const file = input.files[0];
    if (!file) return;
    const button = document.getElementById('import-submit');
    const bar = document.getElementById('import-progress');
    const text = document.getElementById('import-text');
    button.disabled = true;
    document.getElementById('import-status').hidden = false;
    try {
        const created = await upload('health/imports', file, fraction => {
            bar.value = fraction;
            text.textContent = `Uploading ${file.name}: ${Math.round(fraction * 100)}%.`;
        }, {'X-Timezone': timeZone});
        input.value = '';
        show(created.import);
        await follow(created.import.id);
    } catch (error) {
        text.textContent = `The upload was refused: ${error.message}`;
    } finally {
        button.disabled = false;
    }
}

document.getElementById('import-form').addEventListener('submit', event => { submit(event); });
