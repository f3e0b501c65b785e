import type { RootContent } from 'mdast';
import type { AppSpec, FieldRuleSpec, RowRuleSpec, ValidationRuleSpec } from '../spec/types.ts';
import { type CellLine, cellLines, lastCode, unmark } from './cellLines.ts';
import { extraBlocks, type ImportContext } from './importContext.ts';
import { codesOf, type Pos, posOf, readTable, sectionsAt, tablesIn } from './markdownTree.ts';
import { entityNames, fieldNames } from './specNames.ts';

const COLUMNS = { rule: ['Rule'], error: ['Error', 'Error code', 'Code'] };

const FORMATS: [string, NonNullable<FieldRuleSpec['format']>][] = [
  ['email', 'email'],
  ['e-mail', 'email'],
  ['web address', 'url'],
  ['url', 'url'],
  ['phone', 'phone'],
  ['currency', 'currency'],
];

/**
 * Section 5: per entity, a table of rules with the error each raises. A row rule reads
 * `Must hold: … (`rule`). Checked only when … (`when`). Shown on <field>.`; a field rule is the
 * sentence `doc` writes: `<Field> must be at least {constant} (…) and at most 10 characters long,
 * and match the pattern `…`.`
 */
export function readValidation(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  for (const block of sectionsAt(body, 3)) {
    const pos = posOf(block.heading);
    const entity = ctx.resolve(
      entityNames(spec),
      codesOf(block.heading)[0] ?? block.title,
      'entity',
      pos,
      'validation',
    );
    if (!entity) continue;
    const rules: ValidationRuleSpec[] = [...(spec.validation[entity] ?? [])];
    spec.validation[entity] = rules;
    ctx.at(`validation.${entity}`, pos);
    const table = tablesIn(block.body)[0];
    extraBlocks(ctx, block.body, 1, `validation.${entity}`, 'an entity has one table of rules');
    for (const row of table ? readTable(table, ctx.source, COLUMNS, ctx) : []) {
      const path = `validation.${entity}.${rules.length}`;
      ctx.at(path, row.pos);
      const errorCell = row.cell('error');
      const error = errorCell.codes[0] ?? errorCell.text.split(':')[0]?.trim() ?? '';
      ctx.at(`${path}.error`, errorCell.pos);
      if (error === '')
        ctx.problem(
          'doc/missing',
          errorCell.pos,
          `${path}.error`,
          'the rule names no error code',
          'write the code in backticks, e.g. `TITLE_TOO_LONG`',
        );
      const ruleCell = row.cell('rule');
      const line = cellLines(ruleCell.node)[0];
      if (!line) {
        ctx.problem('doc/missing', ruleCell.pos, path, 'an empty rule');
        continue;
      }
      const rule = /^must hold\b/i.test(line.marked)
        ? rowRule(ctx, spec, entity, line, error, ruleCell.pos, path)
        : fieldRule(ctx, spec, entity, line, error, ruleCell.pos, path);
      if (rule) {
        for (const k of Object.keys(rule)) ctx.at(`${path}.${k}`, ruleCell.pos);
        rules.push(rule);
      }
    }
  }
}

function rowRule(
  ctx: ImportContext,
  spec: AppSpec,
  entity: string,
  line: CellLine,
  error: string,
  pos: Pos,
  path: string,
): RowRuleSpec | undefined {
  const m = line.marked;
  const whenAt = m.search(/checked only when/i);
  const shownAt = m.search(/shown on/i);
  const changeAt = m.search(/checked when the row is created/i);
  const ends = [whenAt, shownAt, changeAt, m.length].filter((i) => i >= 0);
  const segment = (start: number) => m.slice(start, Math.min(...ends.filter((e) => e > start)));
  const ruleOf = (seg: string, prefix: RegExp) => {
    const last = lastCode(seg);
    // Words, then the rule in backticks: nothing but `)` and `.` may follow it.
    const spans = seg.match(/\uE000\d+\uE000/g)?.length ?? 0;
    if (spans > 1 || (last && !/^[\s).]*$/.test(seg.slice(last.end)))) {
      ctx.problem(
        'doc/invalid-value',
        pos,
        path,
        `cannot read "${unmark(line, seg).trim()}"`,
        'write "Must hold: `rule`. Checked only when `rule`. Shown on <field>." (each part optional but the first)',
      );
    }
    return last ? line.codes[last.index] : unmark(line, seg.replace(prefix, '')).replace(/\.$/, '').trim();
  };
  const rule = ruleOf(segment(0), /^must hold:?/i);
  if (!rule) {
    ctx.problem(
      'doc/missing',
      pos,
      `${path}.rule`,
      'the rule is empty',
      'write the rule in backticks after "Must hold:"',
    );
    return undefined;
  }
  const r: RowRuleSpec = { kind: 'row', rule, error };
  if (whenAt >= 0) {
    const when = ruleOf(segment(whenAt), /^checked only when/i);
    if (when) r.when = when;
  }
  if (shownAt >= 0) {
    const label = unmark(line, segment(shownAt))
      .replace(/^shown on/i, '')
      .replace(/\.$/, '')
      .trim();
    const field = ctx.resolve(fieldNames(spec, entity, false), label, 'field', pos, `${path}.field`);
    if (field) r.field = field;
  }
  return {
    kind: 'row',
    rule: r.rule,
    ...(r.when ? { when: r.when } : {}),
    ...(r.field ? { field: r.field } : {}),
    ...(changeAt >= 0 ? { onChange: true } : {}),
    error,
  };
}

function fieldRule(
  ctx: ImportContext,
  spec: AppSpec,
  entity: string,
  line: CellLine,
  error: string,
  pos: Pos,
  path: string,
): FieldRuleSpec | undefined {
  const m = line.marked;
  const mustAt = m.search(/\smust\s/i);
  if (mustAt < 0) {
    ctx.problem(
      'doc/invalid-value',
      pos,
      path,
      `cannot read the rule "${unmark(line)}"`,
      'write "Must hold: `<rule>`" or "<Field> must be at most {constant} characters long" (see docs/nine-point-format.md)',
    );
    return undefined;
  }
  const field = ctx.resolve(
    fieldNames(spec, entity, false),
    unmark(line, m.slice(0, mustAt)),
    'field',
    pos,
    `${path}.field`,
  );
  if (!field) return undefined;
  const r: FieldRuleSpec = { kind: 'field', field, error };
  const clauses = m
    .slice(mustAt)
    .replace(/^\s*must\s+/i, '')
    .trim()
    .replace(/\.$/, '')
    .split(/,?\s+and\s+(?:must\s+)?(?=(?:be|match|matches|have|at least|at most)\b)/i);
  const bounds: Bound[] = [];
  for (const raw of clauses) {
    const clause = raw.trim();
    const lower = clause.toLowerCase();
    if (/^match(es)?\b/.test(lower)) {
      const last = lastCode(clause);
      r.pattern = last
        ? (line.codes[last.index] ?? '')
        : unmark(line, clause.replace(/^match(es)?( the pattern)?/i, ''));
      continue;
    }
    const format =
      FORMATS.find(([w]) => lower.startsWith('be a valid') && lower.includes(w))?.[1] ??
      (/^be a (?:valid )?three-letter currency code\b/.test(lower) ? 'currency' : undefined);
    if (format) {
      r.format = format;
      continue;
    }
    const length = /\s+characters?(\s+long)?$/i.test(clause);
    const body = clause.replace(/^(?:be|have)\s+/i, '').replace(/\s*characters?(\s+long)?$/i, '');
    const parts = body.split(/\s+and\s+(?=at (?:least|most)\b)/i);
    const read = parts.map((p) => /^at (least|most)\s+(.+)$/i.exec(p.trim()));
    if (read.some((x) => x === null)) {
      ctx.problem(
        'doc/invalid-value',
        pos,
        path,
        `cannot read "${unmark(line, clause)}"`,
        'use "be at least …", "be at most …", "… characters long", "match the pattern `…`" or "be a valid email address", joined by "and" or ", and"',
      );
      continue;
    }
    for (const x of read as RegExpExecArray[]) {
      bounds.push({ least: x[1]?.toLowerCase() === 'least', text: x[2] ?? '', length });
    }
  }
  // `at least 3, and at most 10 characters long`: a bound right before a length bound of the
  // other end is a length too (as in `at least 3 and at most 10 characters long`).
  bounds.forEach((b, i) => {
    const next = bounds[i + 1];
    if (!b.length && next?.length && next.least !== b.least) b.length = true;
  });
  for (const b of bounds) {
    const v = boundOf(ctx, spec, unmark(line, b.text), pos, path);
    if (v === undefined) continue;
    const key = b.length ? (b.least ? 'minLength' : 'maxLength') : b.least ? 'min' : 'max';
    if (r[key] !== undefined)
      ctx.problem('doc/duplicate', pos, path, `the rule gives ${b.least ? 'at least' : 'at most'} twice`);
    r[key] = v;
  }
  const ordered: Record<string, unknown> = { kind: 'field', field };
  for (const k of ['minLength', 'maxLength', 'min', 'max', 'pattern', 'format'] as const) {
    if (r[k] !== undefined) ordered[k] = r[k];
  }
  ordered.error = error;
  return ordered as unknown as FieldRuleSpec;
}

/** One end of a range: `at least {min}`, `at most 10 characters`. */
interface Bound {
  least: boolean;
  text: string;
  length: boolean;
}

/** `{maxLength} (100)` → the constant `maxLength`; `0.01` → 0.01; `5 (a note)` → 5. */
function boundOf(
  ctx: ImportContext,
  spec: AppSpec,
  text: string,
  pos: Pos,
  path: string,
): number | string | undefined {
  const t = text.trim();
  // What follows in parentheses is the constant's value as `doc` shows it, or a note.
  const bare = t.replace(/\s*\([^)]*\)$/, '').trim();
  const constant =
    /^\{([^}]+)\}$/.exec(bare)?.[1] ?? (Object.hasOwn(spec.constants, bare) ? bare : undefined);
  if (constant !== undefined) return constant.trim();
  const n = Number(bare);
  if (bare !== '' && Number.isFinite(n)) return n;
  ctx.problem(
    'doc/invalid-value',
    pos,
    path,
    `"${t}" is neither a number nor a constant`,
    'write a number, or a constant as {name}',
  );
  return undefined;
}
