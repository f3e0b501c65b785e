import type { RootContent } from 'mdast';
import { humanize } from '../doc/labels.ts';
import type { AppSpec, EntityStatesSpec, StateSpec, TransitionSpec } from '../spec/types.ts';
import { type CellLine, cellLines, lastCode, unmark } from './cellLines.ts';
import { extraBlocks, flag, flagCell, type ImportContext, keyFromLabel, splitList } from './importContext.ts';
import {
  type Cell,
  codesOf,
  posOf,
  readTable,
  sectionsAt,
  tableHeaders,
  tablesIn,
  textOf,
} from './markdownTree.ts';
import { ruleIn } from './ruleIn.ts';
import { entityNames, fieldNames, roleNames, stateNames } from './specNames.ts';

const STATE_COLUMNS = {
  state: ['State', 'Name', 'Key'],
  label: ['Label'],
  initial: ['Initial', 'Start'],
  final: ['Final', 'End'],
  description: ['Meaning', 'Description'],
  waitingOn: ['Waiting on', 'Whose turn'],
};

/** An input the transition may be given without (`Rating comment (optional)`). */
const OPTIONAL = /\s*\(optional\)$/i;

const TRANSITION_COLUMNS = {
  transition: ['Transition', 'Name', 'Key'],
  label: ['Label'],
  from: ['From'],
  to: ['To'],
  roles: ['Roles', 'Who'],
  guard: ['Guard', 'Only when', 'Condition'],
  input: ['Asks for', 'Input'],
  set: ['Sets', 'Set'],
  notes: ['Notes'],
};

/**
 * Section 4: per entity (`### Claim`), the status field, a table of states and a table of
 * transitions. States and roles may be named by key or label.
 */
export function readStates(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  for (const block of sectionsAt(body, 3)) {
    const pos = posOf(block.heading);
    const entity = ctx.resolve(
      entityNames(spec),
      codesOf(block.heading)[0] ?? block.title,
      'entity',
      pos,
      'states',
    );
    if (!entity) continue;
    const path = `states.${entity}`;
    ctx.at(path, pos);
    const tables = tablesIn(block.body);
    extraBlocks(
      ctx,
      block.body,
      2,
      path,
      'an entity has a table of states, a table of transitions and perhaps a list of rule-chosen first states',
      1,
    );
    const stateTable = tables.find((t) => !tableHeaders(t).includes('to'));
    const transitionTable = tables.find((t) => tableHeaders(t).includes('to'));
    const st: EntityStatesSpec = { field: '', initial: '', states: {}, transitions: {} };
    spec.states[entity] = st;
    // The status field: named in the sentence under the heading, or the entity's status-typed field.
    const sentence = block.body.find((n) => n.type === 'paragraph');
    const fields = fieldNames(spec, entity, false);
    const named = codesOf(sentence).find((c) => fields.some((f) => f.key === c));
    const statusField = Object.entries(spec.entities[entity]?.fields ?? {}).find(
      ([, f]) => f.type === 'status',
    )?.[0];
    st.field = named ?? statusField ?? 'status';
    ctx.at(`${path}.field`, posOf(sentence, pos));
    let initialText: string | undefined;
    for (const n of block.body) {
      if (n.type !== 'paragraph') continue;
      for (const raw of textOf(n).split(/(?<=\.)\s+/)) {
        const sentence = raw.trim();
        if (sentence === '' || /^the status is kept in the field\b/i.test(sentence)) continue;
        if (/^new .+ start as .+/i.test(sentence)) continue;
        ctx.problem(
          'doc/invalid-value',
          posOf(n, pos),
          path,
          `cannot read "${sentence}"`,
          'write "The status is kept in the field <label> (`key`)." and "New <plural> start as **<state>**."; put notes in an HTML comment',
        );
      }
      for (const c of n.children) if (c.type === 'strong') initialText ??= textOf(c);
    }
    for (const row of stateTable ? readTable(stateTable, ctx.source, STATE_COLUMNS, ctx) : []) {
      const keyCell = row.cell('state');
      const labelCell = row.cell('label');
      const key =
        keyCell.codes[0] ?? (keyCell.text ? keyFromLabel(keyCell.text) : keyFromLabel(labelCell.text));
      const spath = `${path}.states.${key}`;
      ctx.at(spath, row.pos);
      if (Object.hasOwn(st.states, key)) {
        ctx.problem('doc/duplicate', row.pos, spath, `the state "${key}" is listed twice`);
        continue;
      }
      const state: StateSpec = {};
      const label = labelCell.raw || (keyCell.codes[0] ? '' : keyCell.raw);
      if (label !== '' && label !== humanize(key)) state.label = label;
      if (flagCell(ctx, row.cell('final'), `${spath}.final`)) state.final = true;
      const description = row.cell('description').raw;
      if (description !== '') state.description = description;
      const waiting = row.cell('waitingOn');
      const waitingLine = cellLines(waiting.node)[0];
      if (waitingLine) {
        const last = lastCode(waitingLine.marked);
        const rule = last ? waitingLine.codes[last.index] : unmark(waitingLine);
        if (rule) state.waitingOn = rule;
        ctx.at(`${spath}.waitingOn`, waiting.pos);
      }
      st.states[key] = state;
      if (flagCell(ctx, row.cell('initial'), `${path}.initial`) && st.initial === '') st.initial = key;
    }
    if (st.initial === '' && initialText !== undefined) {
      st.initial = ctx.resolve(stateNames(spec, entity), initialText, 'state', pos, `${path}.initial`) ?? '';
    }
    if (st.initial === '') {
      ctx.problem(
        'doc/missing',
        pos,
        `${path}.initial`,
        'no initial state',
        'mark one state `yes` in the Initial column',
      );
    }
    ctx.at(`${path}.initial`, pos);
    readInitialWhen(ctx, spec, entity, st, block.body);
    for (const row of transitionTable
      ? readTable(transitionTable, ctx.source, TRANSITION_COLUMNS, ctx)
      : []) {
      readTransition(ctx, spec, entity, st, row);
    }
  }
}

/**
 * States chosen by a rule for a new row: the bullets under the status sentence, each
 * `**State** when … (`rule`)` (the rule is the last code span), in order.
 */
function readInitialWhen(
  ctx: ImportContext,
  spec: AppSpec,
  entity: string,
  st: EntityStatesSpec,
  body: readonly RootContent[],
): void {
  const list = body.find((n) => n.type === 'list');
  if (list?.type !== 'list') return;
  const rules: { state: string; when: string }[] = [];
  list.children.forEach((item, i) => {
    const p = `states.${entity}.initialWhen[${i}]`;
    const ipos = posOf(item);
    ctx.at(p, ipos);
    const para = item.children.find((c) => c.type === 'paragraph');
    const strong = para?.type === 'paragraph' ? para.children.find((c) => c.type === 'strong') : undefined;
    const codes = codesOf(item);
    const when = codes[codes.length - 1];
    if (!strong || when === undefined) {
      ctx.problem(
        'doc/invalid-value',
        ipos,
        p,
        `not read as a starting state: ${JSON.stringify(textOf(item))}`,
        'write "**State** when `rule`", e.g. "**Approved** when `total < limit`"',
      );
      return;
    }
    const state = ctx.resolve(stateNames(spec, entity), textOf(strong), 'state', ipos, `${p}.state`);
    ctx.at(`${p}.when`, ipos);
    if (state) rules.push({ state, when });
  });
  if (rules.length > 0) st.initialWhen = rules;
}

function readTransition(
  ctx: ImportContext,
  spec: AppSpec,
  entity: string,
  st: EntityStatesSpec,
  row: ReturnType<typeof readTable>[number],
): void {
  const keyCell = row.cell('transition');
  const labelCell = row.cell('label');
  const key = keyCell.codes[0] ?? (keyCell.text ? keyFromLabel(keyCell.text) : keyFromLabel(labelCell.text));
  const path = `states.${entity}.transitions.${key}`;
  ctx.at(path, row.pos);
  if (Object.hasOwn(st.transitions, key)) {
    ctx.problem('doc/duplicate', row.pos, path, `the transition "${key}" is listed twice`);
    return;
  }
  const states = stateNames(spec, entity);
  const names = (cell: Cell, what: string, p: string, candidates = states) => {
    ctx.at(p, cell.pos);
    const items = cell.codes.length > 0 && unmarkAll(cell) === '' ? cell.codes : splitList(cell.text);
    return items.flatMap((t) => {
      const k = ctx.resolve(candidates, t, what, cell.pos, p);
      return k ? [k] : [];
    });
  };
  const t: TransitionSpec = { from: [], to: '', roles: [] };
  const label = labelCell.raw || (keyCell.codes[0] ? '' : keyCell.raw);
  if (label !== '' && label !== humanize(key)) t.label = label;
  t.from = names(row.cell('from'), 'state', `${path}.from`);
  const to = row.cell('to');
  ctx.at(`${path}.to`, to.pos);
  t.to = ctx.resolve(states, to.codes[0] ?? to.text, 'state', to.pos, `${path}.to`) ?? '';
  const rolesCell = row.cell('roles');
  const rolesText = withoutInheritance(rolesCell.text);
  t.roles =
    rolesText.toLowerCase() === 'nobody' || rolesText === ''
      ? []
      : names({ ...rolesCell, text: rolesText, codes: [] }, 'role', `${path}.roles`, roleNames(spec));
  readGuard(ctx, row.cell('guard'), t, path);
  const fields = fieldNames(spec, entity, false);
  const input = row.cell('input');
  if (input.text !== '' && flag(input.text) !== false) {
    // `Rating, Rating comment (optional)`: the marked ones are optionalInput.
    const items = splitList(input.text);
    const maybe = items.filter((i) => OPTIONAL.test(i)).map((i) => i.replace(OPTIONAL, ''));
    const must = items.filter((i) => !OPTIONAL.test(i));
    if (maybe.length === 0) t.input = names(input, 'field', `${path}.input`, fields);
    else {
      const only = (list: string[]) => ({ ...input, text: list.join(', '), codes: [] });
      if (must.length > 0) t.input = names(only(must), 'field', `${path}.input`, fields);
      t.optionalInput = names(only(maybe), 'field', `${path}.optionalInput`, fields);
    }
  }
  readSets(ctx, row.cell('set'), fields, t, path);
  const notes = row.cell('notes');
  const noteLines = cellLines(notes.node);
  const timed = noteLines.find((l) => /\bby itself\b/i.test(l.marked));
  if (timed) {
    const after = ruleIn(timed);
    ctx.at(`${path}.after`, notes.pos);
    if (after === undefined)
      ctx.problem(
        'doc/invalid-value',
        notes.pos,
        `${path}.after`,
        `cannot read when "${key}" happens by itself`,
        'write "happens by itself, as the system, once `<instant rule>` has passed" on a line of its own',
      );
    else t.after = after;
  }
  const others = noteLines.filter((l) => l !== timed);
  const lower = others
    .map((l) => unmark(l))
    .join(' ')
    .toLowerCase();
  if (lower.includes('confirm')) t.confirm = true;
  // Each part says one of the two things a transition's notes can say; anything else is reported.
  for (const part of lower.split(/[;\n]/).map((x) => x.trim().replace(/\.$/, ''))) {
    if (part === '' || /\bconfirm/.test(part) || /\bcalls\b/.test(part)) continue;
    ctx.problem(
      'doc/invalid-value',
      notes.pos,
      `${path}.notes`,
      `cannot read the note "${part}"`,
      'write "asks for confirmation" and/or "then calls `declaredCall`", separated by ";"; put other notes in an HTML comment',
    );
  }
  const callsAt = lower.indexOf('calls');
  if (callsAt >= 0) {
    const calls = others.flatMap((l) => {
      const i = l.marked.toLowerCase().indexOf('calls');
      return i < 0
        ? []
        : [...l.marked.slice(i).matchAll(/\uE000(\d+)\uE000/g)].map((m) => l.codes[Number(m[1])] ?? '');
    });
    if (calls.length > 0) t.calls = calls;
    ctx.at(`${path}.calls`, notes.pos);
  }
  st.transitions[key] = t;
}

/** The Sets cell: one `<field> set to `rule`` per line. */
function readSets(
  ctx: ImportContext,
  sets: Cell,
  fields: ReturnType<typeof fieldNames>,
  t: TransitionSpec,
  path: string,
): void {
  ctx.at(`${path}.set`, sets.pos);
  for (const line of cellLines(sets.node)) {
    const at = line.marked.search(/\s(set to|=|:=|←)\s/i);
    if (at < 0) {
      ctx.problem(
        'doc/invalid-value',
        sets.pos,
        `${path}.set`,
        `cannot read "${unmark(line)}"`,
        'write `<field> set to <rule in backticks>`, one per line (`<br>` between)',
      );
      continue;
    }
    const fieldText = unmark(line, line.marked.slice(0, at));
    const field = ctx.resolve(fields, fieldText, 'field', sets.pos, `${path}.set`);
    const rest = line.marked.slice(at).replace(/^\s(set to|=|:=|←)\s/i, '');
    const last = lastCode(rest);
    const value = last ? line.codes[last.index] : unmark(line, rest);
    if (field && value !== undefined) {
      t.set ??= {};
      t.set[field] = value;
    }
  }
}

/** `Employee (and Manager and Admin, by inheritance)` → `Employee`. */
function withoutInheritance(text: string): string {
  return text.replace(/\([^)]*by inheritance\)/gi, '').trim();
}

function unmarkAll(cell: Cell): string {
  return cell.text
    .split(',')
    .filter((s) => !cell.codes.includes(s.trim()))
    .join('')
    .trim();
}

/**
 * The Guard cell: `none`, or one line per guard in the order they are checked (`<br>` between):
 * `words (`rule`); otherwise `CODE``, each further line optionally starting with `then`. The
 * first line is `guard`/`guardError`, the others `guards` (each needs its own code).
 */
function readGuard(ctx: ImportContext, cell: Cell, t: TransitionSpec, path: string): void {
  ctx.at(`${path}.guard`, cell.pos);
  const lines = cellLines(cell.node);
  const first = lines[0];
  if (!first) return;
  const lower = first.marked.toLowerCase();
  if (lines.length === 1 && (lower === 'none' || lower === '-' || lower === '—')) return;
  lines.forEach((line, i) => {
    const g = guardLine(line);
    if (g.rule === '' || g.unreadable) {
      ctx.problem(
        'doc/invalid-value',
        cell.pos,
        `${path}.guard`,
        `cannot read the guard "${unmark(line)}"`,
        'write the rule in backticks, then "; otherwise `ERROR_CODE`" (one guard per line, `<br>` between)',
      );
      return;
    }
    if (i === 0) {
      t.guard = g.rule;
      if (g.error !== undefined) t.guardError = g.error;
      if (g.error !== undefined) ctx.at(`${path}.guardError`, cell.pos);
      return;
    }
    ctx.at(`${path}.guards.${i - 1}`, cell.pos);
    if (g.error === undefined) {
      ctx.problem(
        'doc/missing',
        cell.pos,
        `${path}.guards.${i - 1}.error`,
        `the guard "${g.rule}" has no error code`,
        'add "; otherwise `ERROR_CODE`": each further guard raises its own code',
      );
      return;
    }
    t.guards = [...(t.guards ?? []), { rule: g.rule, error: g.error }];
  });
}

/** One line of a Guard cell: `[then] words (`rule`)[; otherwise `CODE`]`. */
function guardLine(line: CellLine): { rule: string; error: string | undefined; unreadable: boolean } {
  const marked = line.marked.replace(/^(?:then|and then|and)\s+/i, '');
  const lower = marked.toLowerCase();
  const split = lower.search(/[;,]?\s*otherwise\b/);
  const rulePart = split >= 0 ? marked.slice(0, split) : marked;
  const errorPart = split >= 0 ? marked.slice(split) : '';
  const last = lastCode(rulePart);
  const rule = (last ? line.codes[last.index] : unmark(line, rulePart)) ?? '';
  // Words, then the rule in backticks; then `; otherwise `CODE`` and nothing else.
  const spans = rulePart.match(/\uE000\d+\uE000/g)?.length ?? 0;
  const unreadable =
    spans > 1 ||
    (last !== undefined && !/^[\s).]*$/.test(rulePart.slice(last.end))) ||
    (errorPart !== '' && !/^[;,]?\s*otherwise\s*(\uE000\d+\uE000|[\w./-]+)\s*\.?$/i.test(errorPart));
  if (errorPart === '') return { rule, error: undefined, unreadable };
  const m = /\uE000(\d+)\uE000/.exec(errorPart);
  const code = m
    ? line.codes[Number(m[1])]
    : unmark(line, errorPart)
        .replace(/^[;,]?\s*otherwise\s*/i, '')
        .replace(/\.$/, '');
  return { rule, error: code || undefined, unreadable };
}
