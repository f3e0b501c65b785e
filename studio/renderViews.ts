import { importDoc } from '../src/import/importDoc.ts';
import type { AppModel } from '../src/model/appModel.ts';
import { resolve } from '../src/model/resolve.ts';
import type { AppSpec } from '../src/spec/types.ts';
import { changeSinceSave, modelTexts } from './modelTexts.ts';
import { stateDiagramSvg, stateDiagrams } from './stateDiagram.ts';
import { st } from './studioLocale.ts';
import { permissionMatrix } from './views.ts';

const $ = (id: string) => document.getElementById(id) as HTMLElement;

/** The saved document's model, remembered by its text (the saved text changes only on a save). */
let saved: { text: string; model: AppModel | null } | null = null;

function savedModel(text: string): AppModel | null {
  if (saved?.text !== text) {
    const spec = importDoc(text).spec;
    saved = { text, model: spec ? resolve(spec) : null };
  }
  return saved.model;
}

/**
 * Draws every read-only view of the document's model (each in its tab panel): permissions, state
 * diagrams, SQL, the change since the last save, types, OpenAPI and the generated document.
 */
export function renderViews(spec: AppSpec, savedText: string): void {
  const model = resolve(spec);
  const texts = modelTexts(model);
  renderPermissions(model);
  renderStates(model);
  $('sql').textContent = texts.sql;
  $('types').textContent = texts.types;
  $('openapi').textContent = texts.openApi;
  $('generated-doc').textContent = texts.doc;
  renderChange(savedModel(savedText), model);
  // Panels of code scroll and hold nothing focusable: a tab stop lets the keyboard scroll them.
  for (const id of ['panel-sql', 'panel-types', 'panel-openapi', 'panel-doc']) $(id).tabIndex = 0;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text = '',
  className = '',
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function headRow(table: HTMLTableElement, headers: string[]): void {
  const head = table.createTHead().insertRow();
  for (const h of headers) {
    const th = el('th', h);
    th.scope = 'col';
    head.append(th);
  }
}

function renderPermissions(model: AppModel): void {
  const table = el('table', '', 'matrix');
  table.createCaption().textContent = st('matrixCaption');
  headRow(table, [st('role'), st('entity'), st('read'), st('create'), st('update'), st('delete')]);
  const body = table.createTBody();
  for (const r of permissionMatrix(model)) {
    const tr = body.insertRow();
    const th = el('th', r.roleLabel);
    th.scope = 'row';
    tr.append(th);
    tr.insertCell().textContent = r.entityLabel;
    for (const c of r.cells) {
      const td = tr.insertCell();
      if (c.decides === 'never') {
        td.className = 'never';
        td.textContent = st('never');
      } else if (c.decides === 'always') td.textContent = st('always');
      else for (const rule of c.decides) td.append(el('code', rule), el('br'));
      for (const b of c.becomes)
        td.append(st('onlyIfBecomes'), el('code', b.rule), ` (${b.error})`, el('br'));
      const inherited = c.from.filter((role) => role !== r.role);
      if (inherited.length > 0) td.append(st('inheritedFrom', { roles: inherited.join(', ') }));
    }
  }
  $('permissions').replaceChildren(table);
}

function renderStates(model: AppModel): void {
  const diagrams = stateDiagrams(model);
  if (diagrams.length === 0) {
    $('states').replaceChildren(el('p', st('noStates')));
    return;
  }
  $('states').replaceChildren(
    ...diagrams.map((d, i) => {
      const section = el('section', '', 'machine');
      const title = st('stateDiagramOf', { entity: d.entityLabel });
      const initial = d.states.filter((s) => s.initial).map((s) => s.label);
      const summary = st('stateDiagramSummary', {
        entity: d.entityLabel,
        states: d.states.map((s) => s.label).join(', '),
        initial: initial.join(', '),
        count: d.transitions.length,
      });
      const figure = el('div', '', 'diagram');
      figure.innerHTML = stateDiagramSvg(d, `sd${i}`, {
        title,
        summary,
        start: st('initialState'),
        final: st('finalState'),
      });
      // A wide machine scrolls sideways: a region keyboard users can reach and scroll.
      figure.tabIndex = 0;
      figure.setAttribute('role', 'region');
      figure.setAttribute('aria-label', title);
      section.append(el('h3', title), figure, transitionsTable(d, model));
      return section;
    }),
  );
}

function transitionsTable(d: ReturnType<typeof stateDiagrams>[number], model: AppModel): HTMLTableElement {
  const label = (name: string) => model.machines.get(d.entity)?.states.get(name)?.label ?? name;
  const table = el('table', '', 'matrix');
  table.createCaption().textContent = st('transitionsOf', { entity: d.entityLabel });
  headRow(table, [st('transition'), st('from'), st('to'), st('roles')]);
  const body = table.createTBody();
  for (const t of d.transitions) {
    const tr = body.insertRow();
    const th = el('th', t.label);
    th.scope = 'row';
    tr.append(th);
    tr.insertCell().textContent = t.from.map(label).join(', ');
    tr.insertCell().textContent = label(t.to);
    tr.insertCell().textContent = t.roles.join(', ');
  }
  return table;
}

function renderChange(savedModelOrNull: AppModel | null, model: AppModel): void {
  const change = changeSinceSave(savedModelOrNull, model);
  const box = $('change');
  if (change.kind === 'none' || change.kind === 'savedInvalid') {
    box.replaceChildren(el('p', st(change.kind === 'none' ? 'changeNone' : 'savedHasErrors')));
    return;
  }
  const list = (items: string[]) => {
    const ul = el('ul');
    ul.append(...items.map((i) => el('li', i)));
    return ul;
  };
  if (change.kind === 'refused') {
    box.replaceChildren(el('p', st('changeRefused'), 'refused'), list(change.refused), list(change.changes));
    return;
  }
  const pre = el('pre', change.sql, 'sql');
  pre.tabIndex = 0;
  pre.setAttribute('aria-label', st('changeSqlLabel'));
  box.replaceChildren(el('p', st('changeIntro')), list(change.changes), pre);
}
