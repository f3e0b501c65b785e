import type { RootContent } from 'mdast';
import type {
  AppSpec,
  DashboardWidgetKind,
  DashboardWidgetSpec,
  ScreenKind,
  ScreenSpec,
} from '../spec/types.ts';
import { WIDGET_WORDS } from '../spec/widgetWords.ts';
import { cellLines, lastCode, unmark } from './cellLines.ts';
import { findNamed, type ImportContext, keyFromLabel, splitList } from './importContext.ts';
import { codesOf, type Pos, posOf, readTable, tablesIn, textOf } from './markdownTree.ts';
import { entityNames, fieldNames, roleNames } from './specNames.ts';

const SCREEN_COLUMNS = {
  screen: ['Screen', 'Key', 'Name'],
  title: ['Title'],
  route: ['Route', 'Path', 'URL'],
  kind: ['Kind', 'Type'],
  entity: ['Entity'],
  nav: ['In the navigation for', 'Navigation', 'Nav', 'Menu'],
  shows: ['What it shows', 'Shows', 'Description'],
};

const KINDS: [string, ScreenKind][] = [
  ['dashboard', 'dashboard'],
  ['list', 'list'],
  ['detail', 'detail'],
  ['form', 'form'],
  ['board', 'board'],
  ['custom', 'custom'],
  ['administration', 'admin'],
  ['admin', 'admin'],
];

/**
 * Section 2: the table of screens, then `### Screen details`: per screen a `**Title** (`/route`)`
 * line and a list (columns, filters, sort, narrowing rule, related lists, form fields, component).
 */
export function readScreens(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  const table = tablesIn(body)[0];
  for (const row of table ? readTable(table, ctx.source, SCREEN_COLUMNS, ctx) : []) {
    const keyCell = row.cell('screen');
    const titleCell = row.has('title') ? row.cell('title') : undefined;
    const title = titleCell ? titleCell.raw : keyCell.raw;
    const key = (titleCell ? keyCell.codes[0] || keyCell.text : keyCell.codes[0]) || keyFromLabel(title);
    const path = `screens.${key}`;
    ctx.at(path, row.pos);
    if (Object.hasOwn(spec.screens, key)) {
      ctx.problem(
        'doc/duplicate',
        row.pos,
        path,
        `the screen "${key}" is listed twice`,
        'give each screen its own name in the first column',
      );
      continue;
    }
    const routeCell = row.cell('route');
    const kindCell = row.cell('kind');
    const kindWord = kindCell.text.toLowerCase();
    const kind = KINDS.find(([w]) => kindWord.startsWith(w))?.[1];
    ctx.at(`${path}.kind`, kindCell.pos);
    if (!kind) {
      ctx.problem(
        'doc/invalid-value',
        kindCell.pos,
        `${path}.kind`,
        kindWord === '' ? 'the screen has no kind' : `unknown screen kind "${kindCell.text}"`,
        'one of: dashboard, list, detail, form, board, custom, administration',
      );
    }
    const s: ScreenSpec = { route: routeCell.codes[0] ?? routeCell.text, kind: kind ?? 'custom', title };
    ctx.at(`${path}.route`, routeCell.pos);
    const shows = row.cell('shows').raw;
    if (shows !== '') s.shows = shows;
    const entityCell = row.cell('entity');
    if (entityCell.text !== '' && entityCell.text !== '-') {
      ctx.at(`${path}.entity`, entityCell.pos);
      const e = ctx.resolve(
        entityNames(spec),
        entityCell.codes[0] ?? entityCell.text,
        'entity',
        entityCell.pos,
        `${path}.entity`,
      );
      if (e) s.entity = e;
    }
    const navCell = row.cell('nav');
    const navText = navCell.text.toLowerCase();
    if (
      navText !== '' &&
      !navText.startsWith('not ') &&
      navText !== 'no' &&
      navText !== '-' &&
      navText !== 'nobody'
    ) {
      ctx.at(`${path}.nav`, navCell.pos);
      s.nav = splitList(navCell.text).flatMap((t) => {
        const r = ctx.resolve(roleNames(spec), t, 'role', navCell.pos, `${path}.nav`);
        return r ? [r] : [];
      });
    }
    spec.screens[key] = s;
  }
  readDetails(ctx, body, spec);
}

function readDetails(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  let screen: string | undefined;
  for (const node of body) {
    if (node.type === 'paragraph' && node.children[0]?.type === 'strong') {
      const title = textOf(node.children[0]);
      const codes = codesOf(node);
      const screens = Object.entries(spec.screens);
      screen =
        screens.find(([k]) => codes.includes(k))?.[0] ??
        screens.find(([, s]) => codes.includes(s.route))?.[0] ??
        findNamed(
          screens.map(([key, s]) => ({ key, label: s.title })),
          title,
        );
      if (screen === undefined) {
        ctx.problem(
          'doc/unknown-name',
          posOf(node),
          'screens',
          `details for an unknown screen "${title}"`,
          'the bold title and route must match a row of the screens table',
        );
      }
      continue;
    }
    if (node.type !== 'list') continue;
    if (screen === undefined) {
      ctx.problem(
        'doc/invalid-value',
        posOf(node),
        'screens',
        'a list of screen details without a screen above it',
        "put the screen's bold title and route on the line above: **Tasks** (`/tasks`)",
      );
      continue;
    }
    const s = spec.screens[screen];
    if (!s) continue;
    for (const item of node.children) {
      const para = item.children[0];
      if (para?.type === 'paragraph') readDetail(ctx, spec, screen, s, para, posOf(item));
    }
    screen = undefined;
  }
}

function readDetail(
  ctx: ImportContext,
  spec: AppSpec,
  key: string,
  s: ScreenSpec,
  para: Extract<RootContent, { type: 'paragraph' }>,
  pos: Pos,
): void {
  const [line] = cellLines({ type: 'tableCell', children: para.children });
  if (!line) return;
  const path = `screens.${key}`;
  const text = unmark(line);
  const lower = text.toLowerCase();
  const fields = fieldNames(spec, s.entity);
  const after = (prefix: string) =>
    text.slice(text.indexOf(':') >= 0 ? text.indexOf(':') + 1 : prefix.length).trim();
  const fieldList = (p: string, t: string) =>
    splitList(t).flatMap((name) => {
      if (!s.entity) return [name];
      const f = ctx.resolve(fields, name, 'field', pos, p);
      return f ? [f] : [];
    });
  if (lower.startsWith('columns')) {
    ctx.at(`${path}.columns`, pos);
    s.columns = fieldList(`${path}.columns`, after('columns'));
  } else if (lower.startsWith('filters')) {
    ctx.at(`${path}.filters`, pos);
    s.filters = fieldList(`${path}.filters`, after('filters'));
  } else if (lower.startsWith('form fields') || lower.startsWith('fields')) {
    ctx.at(`${path}.fields`, pos);
    s.fields = fieldList(`${path}.fields`, after('fields'));
  } else if (lower.startsWith('sorted by') || lower.startsWith('sort')) {
    ctx.at(`${path}.sort`, pos);
    const words = text.replace(/^sorted by|^sort(ed)?:?/i, '').trim();
    const parts = splitList(words);
    const direction = (parts[1] ?? '').toLowerCase();
    const descending =
      direction.startsWith('desc') || direction.includes('newest') || direction.includes('latest');
    const name = (parts[0] ?? '').replace(/^-/, '');
    const f = s.entity ? ctx.resolve(fields, name, 'field', pos, `${path}.sort`) : name;
    if (f) s.sort = descending || (parts[0] ?? '').startsWith('-') ? `-${f}` : f;
  } else if (lower.startsWith('shows only rows where') || lower.startsWith('where')) {
    ctx.at(`${path}.where`, pos);
    const last = lastCode(line.marked);
    s.where = last
      ? (line.codes[last.index] ?? '')
      : text.replace(/^shows only rows where|^where:?/i, '').trim();
  } else if (lower.startsWith('related')) {
    ctx.at(`${path}.related`, pos);
    s.related = splitList(after('related')).flatMap((item) => {
      const m = /^(.*)\(by (.*)\)$/i.exec(item);
      const entityText = (m?.[1] ?? item.split('.')[0] ?? '').trim();
      const fieldText = (m?.[2] ?? item.split('.')[1] ?? '').trim();
      const e = ctx.resolve(entityNames(spec), entityText, 'entity', pos, `${path}.related`);
      if (!e) return [];
      const f = ctx.resolve(fieldNames(spec, e, false), fieldText, 'field', pos, `${path}.related`);
      return f ? [`${e}.${f}`] : [];
    });
  } else if (lower.startsWith('widget')) {
    readWidget(ctx, spec, s, after('widget'), pos, `${path}.widgets`);
  } else if (lower.startsWith('custom component') || lower.startsWith('component')) {
    ctx.at(`${path}.component`, pos);
    s.component = line.codes[0] ?? after('component');
  } else {
    ctx.problem(
      'doc/invalid-value',
      pos,
      path,
      `cannot read the screen detail "${text}"`,
      'start it with Columns:, Filters:, Sorted by, Shows only rows where, Related lists:, Form fields, in order:, Widget: or Custom component:',
    );
  }
}

/** `Widget: waiting on me, for Agent, Administrator`: one dashboard widget, appended in order. */
function readWidget(
  ctx: ImportContext,
  spec: AppSpec,
  s: ScreenSpec,
  text: string,
  pos: Pos,
  path: string,
): void {
  const [what = '', ...rest] = splitList(text);
  const kind = (Object.keys(WIDGET_WORDS) as DashboardWidgetKind[]).find(
    (k) => WIDGET_WORDS[k] === what.toLowerCase(),
  );
  const index = s.widgets?.length ?? 0;
  ctx.at(`${path}.${index}`, pos);
  if (!kind) {
    ctx.problem(
      'doc/invalid-value',
      pos,
      `${path}.${index}.kind`,
      `unknown dashboard widget "${what}"`,
      `one of: ${Object.values(WIDGET_WORDS).join(', ')}`,
    );
    return;
  }
  const widget: DashboardWidgetSpec = { kind };
  if (rest.length > 0) {
    const first = (rest[0] ?? '').replace(/^for\s+/i, '');
    widget.roles = [first, ...rest.slice(1)].flatMap((t) => {
      const r = ctx.resolve(roleNames(spec), t, 'role', pos, `${path}.${index}.roles`);
      return r ? [r] : [];
    });
  }
  s.widgets = [...(s.widgets ?? []), widget];
}
