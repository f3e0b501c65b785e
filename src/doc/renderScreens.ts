import type { AppModel } from '../model/appModel.ts';
import type { WidgetNode } from '../model/screen.ts';
import type { ScreenSpec } from '../spec/types.ts';
import { WIDGET_WORDS } from '../spec/widgetWords.ts';
import { entityLabel, fieldLabel, roleLabel } from './docLabels.ts';
import { bullets, code, joinBlocks, table } from './markdown.ts';
import { routeParams } from './routeParams.ts';
import { ruleText } from './ruleText.ts';
import { sortWords } from './sortOrder.ts';

const KIND_WORDS: Record<ScreenSpec['kind'], string> = {
  dashboard: 'dashboard',
  list: 'list',
  detail: 'detail',
  form: 'form',
  board: 'board (columns by status)',
  custom: 'custom',
  admin: 'administration',
};

/**
 * Section 2: every screen with its route, kind, route parameters, entity, who sees it in the
 * navigation and what it shows; then the details some screens have (columns, filters, sort,
 * a narrowing rule, related lists, form fields, custom component).
 *
 * @example
 * renderScreens(model); // '## 2. Screens and routes\n\n| Screen | Title | Route | ...'
 */
export function renderScreens(model: AppModel): string {
  const screens = [...model.screens].map(([name, node]) => [name, node.spec] as const);
  const rows = screens.map(([name, s]) => [
    code(name),
    s.title,
    code(s.route),
    KIND_WORDS[s.kind] ?? s.kind,
    routeParams(s.route).map(code).join(', '),
    s.entity ? entityLabel(model, s.entity) : '',
    s.nav && s.nav.length > 0 ? s.nav.map((r) => roleLabel(model, r)).join(', ') : 'not in the navigation',
    s.shows ?? '',
  ]);
  const details = screens.flatMap(([name, s]) => {
    const d = [...screenDetails(model, s), ...widgetLines(model, model.screens.get(name)?.widgets)];
    return d.length > 0 ? [`**${s.title}** (${code(s.route)})\n\n${bullets(d)}`] : [];
  });
  return joinBlocks([
    '## 2. Screens and routes',
    screens.length === 0
      ? 'The app declares no screens.'
      : 'Every screen of the app. Screens not in a role’s navigation can still be opened by a link when the role may read what they show.',
    table(
      ['Screen', 'Title', 'Route', 'Kind', 'Params', 'Entity', 'In the navigation for', 'What it shows'],
      rows,
    ),
    details.length > 0 && '### Screen details',
    ...details,
  ]);
}

/** `Widget: waiting on me, for Agent, Administrator`, one line per widget, in order. */
function widgetLines(model: AppModel, widgets: readonly WidgetNode[] | undefined): string[] {
  return (widgets ?? []).map(
    (w) =>
      `Widget: ${WIDGET_WORDS[w.kind]}${w.roles.length > 0 ? `, for ${w.roles.map((r) => roleLabel(model, r)).join(', ')}` : ''}`,
  );
}

function screenDetails(model: AppModel, s: ScreenSpec): string[] {
  const entity = s.entity;
  const fields = (names: readonly string[]) =>
    names.map((f) => (entity ? fieldLabel(model, entity, f) : f)).join(', ');
  const out: string[] = [];
  if (s.columns && s.columns.length > 0) out.push(`Columns: ${fields(s.columns)}`);
  if (s.filters && s.filters.length > 0) out.push(`Filters: ${fields(s.filters)}`);
  if (s.sort) out.push(`Sorted by ${sortWords(s.sort, (f) => (entity ? fieldLabel(model, entity, f) : f))}`);
  if (s.where) out.push(`Shows only rows where ${ruleText(s.where, model, entity)}`);
  if (s.related && s.related.length > 0) {
    const related = s.related.map((r) => {
      const [e, f] = r.split('.');
      return e && f
        ? `${model.tables.get(e)?.spec.plural ?? entityLabel(model, e)} (by ${fieldLabel(model, e, f)})`
        : r;
    });
    out.push(`Related lists: ${related.join(', ')}`);
  }
  if (s.fields && s.fields.length > 0) out.push(`Form fields, in order: ${fields(s.fields)}`);
  if (s.component) out.push(`Custom component: ${code(s.component)}`);
  return out;
}
