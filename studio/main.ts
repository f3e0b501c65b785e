import initialDoc from 'virtual:ninefold-studio-doc';
import type { EditorView } from '@codemirror/view';
import { demoAccounts } from '../src/backend/embedded/demo/demoAccounts.ts';
import blankTemplate from '../src/import/templates/blank.md?raw';
import type { AppSpec } from '../src/spec/types.ts';
import type { Diagnosis } from './diagnose.ts';
import { createEditor } from './editor.ts';
import { planLive } from './livePlan.ts';
import { applyPageText, setUpLanguageSwitch } from './pageText.ts';
import { forgetLink, linkedDocument, setUpShareControls } from './shareControls.ts';
import { HOST_KEY, type PreviewReport, type StudioHost } from './studioHost.ts';
import { st } from './studioLocale.ts';
import { outline } from './views.ts';

/** The save endpoint of `ninefold studio` (src/cli/studioServer.ts); a static studio has none. */
const DOC_ENDPOINT = '/__ninefold/studio/doc';
/** Where a static studio keeps a document (by its name: a studio built for another keeps its own). */
const storedKey = (name: string) => `ninefold-studio:doc:${name}`;
let docName = 'doc.md';
const DATA_GENERATION = 'ninefold-studio:data';
/** After a valid edit, how long the live app waits for the next keystroke before it is rebuilt. */
const LIVE_DELAY_MS = 250;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/**
 * Timings the benchmarks and tests read (scripts/bench-studio.ts): each check's milliseconds, each
 * live update's (start of the app's page → app ready), when each key went down, when each check's
 * diagnostics were painted, when each live update was ready, and when the editor was usable.
 */
const timings = {
  check: [] as number[],
  live: [] as number[],
  keyAt: [] as number[],
  shownAt: [] as number[],
  liveAt: [] as number[],
  ready: 0,
};
addEventListener('keydown', () => timings.keyAt.push(performance.now()), { capture: true });
Object.assign(window, { __studioTimings: timings });

let serverBacked = false;
let view: EditorView;
let savedText = '';

async function loadDocument(): Promise<{ text: string; name: string }> {
  try {
    const r = await fetch(DOC_ENDPOINT);
    if (r.ok && r.headers.get('content-type')?.includes('json')) {
      serverBacked = true;
      return (await r.json()) as { text: string; name: string };
    }
  } catch {
    // A static studio: the browser's storage keeps the document.
  }
  const name = initialDoc?.name ?? 'doc.md';
  return { text: localStorage.getItem(storedKey(name)) ?? initialDoc?.text ?? blankTemplate, name };
}

function status(text: string): void {
  $('status').textContent = text;
}

async function save(): Promise<void> {
  const text = view.state.doc.toString();
  if (!serverBacked) {
    localStorage.setItem(storedKey(docName), text);
    savedText = text;
    forgetLink();
    status(st('savedInBrowser'));
    return;
  }
  const r = await fetch(DOC_ENDPOINT, { method: 'PUT', body: text });
  const body = (await r.json()) as { saved?: string; error?: string };
  if (r.ok) savedText = text;
  if (r.ok) forgetLink();
  status(r.ok ? st('savedFile', { file: body.saved }) : st('notSaved', { error: body.error }));
}

// ---- outline and problems -------------------------------------------------------------------

function goTo(from: number): void {
  view.dispatch({ selection: { anchor: from }, scrollIntoView: true });
  view.focus();
}

function renderOutline(text: string, diagnosis: Diagnosis): void {
  const entries = outline(text);
  const list = $('outline');
  list.replaceChildren(
    ...entries.map((e, i) => {
      const end = entries[i + 1]?.from ?? Number.POSITIVE_INFINITY;
      const errors = diagnosis.diagnostics.filter(
        (d) => d.severity === 'error' && d.from >= e.from && d.from < end,
      ).length;
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = e.title;
      if (errors > 0) {
        const count = document.createElement('span');
        count.className = 'count';
        count.textContent = errors === 1 ? st('outlineError') : st('outlineErrors', { count: errors });
        button.append(count);
      }
      button.addEventListener('click', () => goTo(e.from));
      li.append(button);
      return li;
    }),
  );
}

function renderProblems(diagnosis: Diagnosis): void {
  const list = $('problems');
  if (diagnosis.diagnostics.length === 0) {
    const li = document.createElement('li');
    li.textContent = st('noProblems');
    list.replaceChildren(li);
    return;
  }
  list.replaceChildren(
    ...diagnosis.diagnostics.map((d) => {
      const li = document.createElement('li');
      const kind = document.createElement('span');
      kind.className = d.severity;
      kind.textContent = st(d.severity === 'error' ? 'error' : 'warning');
      const where = document.createElement('button');
      where.type = 'button';
      where.textContent = st('lineColumn', { line: d.line, column: d.column });
      where.addEventListener('click', () => goTo(d.from));
      li.append(kind, ' ', where, `: ${d.message}`);
      return li;
    }),
  );
}

// ---- read-only views ------------------------------------------------------------------------

/** The last document without errors, for the views (drawn again on a save or a language switch). */
let lastSpec: AppSpec | null = null;

function renderViews(): void {
  const spec = lastSpec;
  // Their own chunk (the printers and the document's renderer): the editor does not wait for it.
  if (spec) void import('./renderViews.ts').then((m) => m.renderViews(spec, savedText));
}

// ---- live app -------------------------------------------------------------------------------

/** The document the live app runs (null until it first started), and the one it is starting. */
let running: { spec: AppSpec; json: string } | null = null;
let starting: { spec: AppSpec; json: string; at: number } | null = null;
let preview: Extract<PreviewReport, { kind: 'ready' }> | null = null;
/** The updates of the running app, one after another (each is planned from the one before). */
let updates: Promise<void> = Promise.resolve();
let liveTimer: ReturnType<typeof setTimeout> | undefined;

/** The live app's database: one per document (by its name, so renaming the app keeps the data). */
function dataDir(): string {
  const generation = localStorage.getItem(DATA_GENERATION) ?? '0';
  const slug = docName.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return `idb://ninefold-studio-${slug}-${generation}`;
}

function showRefusal(title: string, problems: string[]): void {
  const box = $('live-refusal');
  if (problems.length === 0 && title === '') {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const p = document.createElement('p');
  p.textContent = title;
  const ul = document.createElement('ul');
  for (const problem of problems) {
    const li = document.createElement('li');
    li.textContent = problem;
    ul.append(li);
  }
  box.replaceChildren(p, ul);
  box.hidden = false;
}

function startLive(spec: AppSpec, json: string): void {
  starting = { spec, json, at: performance.now() };
  preview = null;
  $('live').dataset.state = 'starting';
  const host: StudioHost = { spec, dataDir: dataDir(), report: onPreviewReport };
  Object.assign(window, { [HOST_KEY]: host });
  $<HTMLIFrameElement>('live').src = `preview.html?run=${Date.now()}`;
}

function onPreviewReport(report: PreviewReport): void {
  const was = starting;
  starting = null;
  if (report.kind === 'ready') {
    if (was) {
      running = { spec: was.spec, json: was.json };
      timings.live.push(performance.now() - was.at);
      timings.liveAt.push(performance.now());
    }
    preview = report;
    $('live').dataset.state = 'ready';
    renderRoles();
    return;
  }
  // The worker's upgrade refused (rows the planner could not see): back to the app as it was.
  showRefusal(st('liveNotChanged', { message: report.message }), report.problems);
  if (running && running.json !== was?.json) startLive(running.spec, running.json);
  else {
    $('live').dataset.state = 'failed';
    // Not the refused start's boot screen ("Starting the app…") left standing under the refusal.
    $<HTMLIFrameElement>('live').src = 'about:blank';
  }
}

function scheduleLive(spec: AppSpec): void {
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => updateLive(spec), LIVE_DELAY_MS);
}

function updateLive(spec: AppSpec): void {
  const json = JSON.stringify(spec);
  // Back to what runs (an edit undone): nothing to refuse any more.
  if (json === running?.json) showRefusal('', []);
  if (json === running?.json || json === starting?.json) return;
  // A running app takes the edit in place (same page, same database); otherwise the page starts.
  if (running && preview) updates = updates.then(() => updateInPlace(spec, json));
  else if (refusedByPlanner(spec)) return;
  else startLive(spec, json);
}

/** Shows the planner's refusal of moving the running app to `spec`, if it refuses. */
function refusedByPlanner(spec: AppSpec): boolean {
  const plan = running ? planLive(running.spec, spec) : { refused: [] };
  if (plan.refused.length > 0) showRefusal(st('liveKeeps'), plan.refused);
  else showRefusal('', []);
  return plan.refused.length > 0;
}

/**
 * The running app's page and worker take the new version: the open database is upgraded by the
 * planner, the app re-rendered with the new model. A refusal leaves both as they were; a broken
 * page is started again.
 */
async function updateInPlace(spec: AppSpec, json: string): Promise<void> {
  const current = preview;
  if (json === running?.json || !current || refusedByPlanner(spec)) return;
  const at = performance.now();
  let refusal: Awaited<ReturnType<typeof current.update>>;
  try {
    refusal = await current.update(spec);
  } catch {
    if (preview === current) startLive(spec, json);
    return;
  }
  // A new document or new data replaced the page meanwhile: this update is moot.
  if (preview !== current) return;
  if (refusal) {
    showRefusal(st('liveNotChanged', { message: refusal.message }), refusal.problems);
    return;
  }
  running = { spec, json };
  timings.live.push(performance.now() - at);
  timings.liveAt.push(performance.now());
  renderRoles();
}

function renderRoles(): void {
  const select = $<HTMLSelectElement>('role');
  const spec = running?.spec;
  if (!spec) return;
  const previous = select.value;
  const accounts = demoAccounts(spec);
  const none = new Option(st('nobody'), '');
  select.replaceChildren(none, ...accounts.map((a) => new Option(`${a.name} (${a.role})`, a.email)));
  if ([...select.options].some((o) => o.value === previous)) select.value = previous;
  select.onchange = () => {
    const account = accounts.find((a) => a.email === select.value) ?? null;
    void preview
      ?.switchTo(account)
      .then(() => status(account ? st('signedInStatus', { name: account.name }) : st('signedOutStatus')));
  };
}

/**
 * The blank template in the editor (Ctrl+Z brings the previous text back) and, once it is a valid
 * app, a live app on new data: the previous app's tables would only be refused as lost.
 */
function newDocument(): void {
  localStorage.setItem(DATA_GENERATION, String(Date.now()));
  running = null;
  starting = null;
  preview = null;
  showRefusal('', []);
  $<HTMLIFrameElement>('live').src = 'about:blank';
  $('live').dataset.state = 'empty';
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: blankTemplate } });
  goTo(0);
}

// ---- tabs -----------------------------------------------------------------------------------

function setUpTabs(): void {
  const tabs = [...document.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const select = (tab: HTMLButtonElement) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute('aria-controls') ?? '').hidden = !on;
    }
    tab.focus();
  };
  for (const [i, tab] of tabs.entries()) {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', (e) => {
      const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (step !== 0) select(tabs[(i + step + tabs.length) % tabs.length] as HTMLButtonElement);
      if (e.key === 'Home') select(tabs[0] as HTMLButtonElement);
      if (e.key === 'End') select(tabs[tabs.length - 1] as HTMLButtonElement);
    });
  }
}

// ---- start ----------------------------------------------------------------------------------

let lastDiagnosis: { diagnosis: Diagnosis; text: string } | null = null;

function onDiagnosis(diagnosis: Diagnosis, text: string, ms: number): void {
  timings.check.push(ms);
  lastDiagnosis = { diagnosis, text };
  // The editor applies the diagnostics right after this returns; painted at the next frame.
  requestAnimationFrame(() => timings.shownAt.push(performance.now()));
  renderOutline(text, diagnosis);
  renderProblems(diagnosis);
  const errors = diagnosis.diagnostics.filter((d) => d.severity === 'error').length;
  const unsaved = text !== savedText ? st('unsaved') : '';
  status(
    `${errors === 0 ? st('noErrors') : errors === 1 ? st('oneError') : st('errors', { count: errors })}${unsaved}`,
  );
  const spec = diagnosis.spec;
  if (!spec) return;
  // The views of the model wait until the editor has shown the diagnostics, and for the next edit.
  clearTimeout(viewsTimer);
  lastSpec = spec;
  viewsTimer = setTimeout(renderViews, VIEWS_DELAY_MS);
  scheduleLive(spec);
}

/** After a valid edit, how long the read-only views wait before they are drawn again. */
const VIEWS_DELAY_MS = 150;
let viewsTimer: ReturnType<typeof setTimeout> | undefined;

/** The language changed: what the page drew itself is drawn again, the live app restarts in it. */
function onLocale(): void {
  showDocName();
  if (lastDiagnosis) {
    renderOutline(lastDiagnosis.text, lastDiagnosis.diagnosis);
    renderProblems(lastDiagnosis.diagnosis);
  }
  renderRoles();
  renderViews();
  // Still starting counts too: its page read the language before the switch.
  const current = starting ?? running;
  if (current) startLive(current.spec, current.json);
}

function showDocName(): void {
  $('doc-name').textContent = serverBacked ? docName : st('keptInBrowser', { name: docName });
}

async function main(): Promise<void> {
  setUpLanguageSwitch(onLocale);
  const { text: stored, name } = await loadDocument();
  // A shared link's document opens unsaved; the stored one is replaced only by Save.
  const text = (await linkedDocument()) ?? stored;
  savedText = stored;
  docName = name;
  showDocName();
  setUpTabs();
  view = createEditor($('editor'), text, onDiagnosis, () => void save().then(renderViews));
  setUpShareControls({
    text: () => view.state.doc.toString(),
    replace: (next) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } }),
    name: () => docName,
    status,
  });
  applyPageText();
  // The tests and benchmarks place the cursor through the editor's own API, then type as a person.
  Object.assign(window, { __studioView: view });
  $('save').addEventListener('click', () => void save().then(renderViews));
  $('new-doc').addEventListener('click', newDocument);
  $('reset-data').addEventListener('click', () => {
    localStorage.setItem(DATA_GENERATION, String(Date.now()));
    // With no app running (its start was refused: the data would not fit the document), the
    // document as it is now starts on the new data.
    const spec = running?.spec ?? lastSpec;
    if (!spec) return;
    showRefusal('', []);
    startLive(spec, JSON.stringify(spec));
  });
  document.documentElement.dataset.studio = 'ready';
  timings.ready = performance.now();
}

void main();
