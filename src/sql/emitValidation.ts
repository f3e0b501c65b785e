import { FIELD_FORMATS } from '../model/formats.ts';
import type { AppModel } from '../model/index.ts';
import type { FieldRuleNode, RowRuleNode } from '../model/validationRule.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { compileRuleSql, type SqlRuleContext } from './compileRuleSql.ts';
import { countFilterFor } from './emitCountVisibility.ts';
import { locksForRules, ordered } from './emitGroupLocks.ts';
import { errorParamsSql } from './errorParamsSql.ts';
import { qualified, quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { colSql, referenceOf, tableOf, tableRef } from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';
import { typedOf } from './typedRule.ts';

function numberOf(model: AppModel, v: number | string, where: string): number {
  if (typeof v === 'number') return v;
  const c = model.constants.get(v)?.value;
  if (typeof c !== 'number') throw new Error(`${where}: constant "${v}" is not a number`);
  return c;
}

/** The boolean SQL of a field rule; an empty field always passes (required-ness is NOT NULL's job). */
export function fieldRuleSql(model: AppModel, node: FieldRuleNode): string {
  const { entity, path: where, spec: rule } = node;
  const c = colSql(model, entity, rule.field);
  const f = model.tables.get(entity)?.spec.fields[rule.field];
  const len = f?.type === 'tags' ? `cardinality(${c})` : `char_length(${c})`;
  const parts: string[] = [];
  if (rule.minLength !== undefined)
    parts.push(`${len} >= ${quoteLiteral(numberOf(model, rule.minLength, where))}`);
  if (rule.maxLength !== undefined)
    parts.push(`${len} <= ${quoteLiteral(numberOf(model, rule.maxLength, where))}`);
  if (rule.min !== undefined) parts.push(`${c} >= ${quoteLiteral(numberOf(model, rule.min, where))}`);
  if (rule.max !== undefined) parts.push(`${c} <= ${quoteLiteral(numberOf(model, rule.max, where))}`);
  if (rule.pattern !== undefined) parts.push(`${c} ~ ${quoteLiteral(rule.pattern)}`);
  if (rule.format !== undefined) {
    // The one format table (src/model/formats.ts); the browser compiles the same patterns.
    const f = FIELD_FORMATS[rule.format];
    parts.push(`${c} ${f.ignoreCase ? '~*' : '~'} ${quoteLiteral(f.pattern)}`);
  }
  if (parts.length === 0) throw new Error(`${where}: a field rule needs a constraint`);
  return `${c} is null or (${parts.join(' and ')})`;
}

/**
 * The holds-condition of a row rule: `when` unknown counts as not applying; the rule itself
 * unknown counts as failing ("a rule whose result is unknown does not hold"). `everyRow`: counts
 * see every row (a migration's check of existing rows, run by the owner), with no filter function.
 */
export function rowRuleHolds(model: AppModel, rule: RowRuleNode, row: string, everyRow = false): string {
  // Counts read other rows only in the triggers (row variable set); CHECKs (row '') have none.
  const ctx: SqlRuleContext =
    row === '' || everyRow
      ? { model, row }
      : { model, row, countFilter: countFilterFor(model, rule.entity, row) };
  const holds = `coalesce(${compileRuleSql(typedOf(rule.rule), ctx)}, false)`;
  if (rule.when === undefined) return holds;
  const when = compileRuleSql(typedOf(rule.when), ctx);
  return `not coalesce(${when}, false) or ${holds}`;
}

/** CHECK constraint clauses (for `create table`) of an entity's field rules and row-local row rules. */
export function validationChecks(model: AppModel, entity: string): string[] {
  const out: string[] = [];
  for (const rule of tableOf(model, entity).rules) {
    const name = quoteIdent(rule.constraintName);
    if (rule.kind === 'field') {
      out.push(`constraint ${name} check (${fieldRuleSql(model, rule)})`);
    } else if (rule.checkable) {
      out.push(`constraint ${name} check (${rowRuleHolds(model, rule, '')})`);
    }
  }
  return out;
}

/**
 * An AFTER INSERT/UPDATE trigger for row rules that read other rows, the user or the clock.
 * SECURITY DEFINER so counts see every row, not just those the writer may read.
 * AFTER, because a rule describes the data once written: `count(attachment where ticket =
 * this.ticket) <= maxAttachmentsPerTicket` must count the attachment being added (a BEFORE
 * trigger let the 21st of 20 through). Raising here still rolls the statement back.
 */
export function emitValidationTrigger(model: AppModel, entity: string): string {
  const t = tableOf(model, entity);
  const checks: string[] = [];
  const locks: ReturnType<typeof locksForRules> = [];
  for (const node of t.rules) {
    if (node.kind !== 'row' || node.checkable) continue;
    const rule = node.spec;
    locks.push(...ruleLocks(model, node, 'new'));
    const params: Record<string, string> = { entity: quoteLiteral(entity) };
    if (rule.field) params.field = quoteLiteral(rule.field);
    Object.assign(params, errorParamsSql(model, node, 'new'));
    // `onChange`: on insert, and on an update that changes the field (not on every later write).
    const written =
      rule.onChange && rule.field
        ? `(tg_op = 'INSERT' or new.${colSql(model, entity, rule.field)} is distinct from old.${colSql(model, entity, rule.field)}) and `
        : '';
    checks.push(
      [
        `if ${written}not (${rowRuleHolds(model, node, 'new')}) then`,
        `  ${raiseSql(rule.error, params)}`,
        'end if;',
      ].join('\n'),
    );
  }
  const revalidate = emitParentRevalidation(model, entity);
  if (checks.length === 0) return revalidate;
  const fn = qualified('app', t.names.validate);
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: true,
      body: `begin\n${indent([...ordered(model, locks), ...checks].join('\n'))}\n  return null;\nend;`,
      executeTo: [],
      comment: `Validation of ${entity} that reads beyond the row (raises the rule's catalogue code).`,
    }),
    sqlTrigger('ninefold_30_validate', 'after insert or update', t.ref, fn),
    ...(revalidate ? [revalidate] : []),
  ].join('\n');
}

/** Lock statements (emitGroupLocks.ts) for the counts and sums of a row rule, on row variable `row`. */
function ruleLocks(model: AppModel, rule: RowRuleNode, row: string) {
  return locksForRules(model, rule.when ? [rule.rule, rule.when] : [rule.rule], row);
}

/**
 * Whether a rule reads the row's own data besides the references it reads through: an own field
 * other than those references, `this`, a count or a sum.
 */
export function relatesOwnData(t: Typed, hops: Set<string>): boolean {
  if (t.kind === 'count' || t.kind === 'sum' || t.kind === 'this') return true;
  if (t.kind === 'field' && t.scope === 'row' && t.path.length === 1 && !hops.has(t.path[0])) return true;
  return typedChildren(t).some((c) => relatesOwnData(c, hops));
}

/** Reference fields a rule reads through (`claim.status` reads through `claim`). */
export function hopsRead(t: Typed, out: Set<string>): Set<string> {
  // Hops inside count/sum are the counted rows' own, not this row's.
  if (t.kind === 'count' || t.kind === 'sum') return out;
  if (t.kind === 'field' && t.scope === 'row' && t.path.length === 2) out.add(t.path[0]);
  for (const c of typedChildren(t)) hopsRead(c, out);
  return out;
}

/** The fields of the row behind reference `hop` that a rule reads (`claim.status` → status). */
export function fieldsReadThrough(t: Typed, hop: string, out: Set<string>): Set<string> {
  if (t.kind === 'count' || t.kind === 'sum') return out;
  if (t.kind === 'field' && t.scope === 'row' && t.path.length === 2 && t.path[0] === hop && t.path[1])
    out.add(t.path[1]);
  for (const c of typedChildren(t)) fieldsReadThrough(c, hop, out);
  return out;
}

/**
 * Row rules of other entities whose `when` reads a row of `parent` through a reference (a line's
 * `claim.status not in (draft, returned)`) are checked again when that row changes: otherwise
 * submitting the claim would skip "lines above the threshold need a receipt". An AFTER UPDATE
 * trigger (it sees the new parent row), SECURITY DEFINER like the row's own validation.
 */
export function emitParentRevalidation(model: AppModel, parent: string): string {
  const blocks: string[] = [];
  for (const t of model.tables.values())
    for (const rule of t.rules) if (rule.kind === 'row') blocks.push(...revalidation(model, parent, rule));
  if (blocks.length === 0) return '';
  const fn = qualified('app', tableOf(model, parent).names.revalidateDependents);
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: true,
      body: `declare\n  c record;\nbegin\n${indent(blocks.join('\n'))}\n  return null;\nend;`,
      executeTo: [],
      comment: `Row rules of other entities that read ${parent} through a reference, checked again when it changes.`,
    }),
    sqlTrigger('ninefold_40_revalidate', 'after update', tableRef(model, parent), fn),
  ].join('\n');
}

/** The blocks re-checking one row rule of a child entity when a `parent` row it reads changes. */
function revalidation(model: AppModel, parent: string, node: RowRuleNode): string[] {
  const child = node.entity;
  const rule = node.spec;
  // Rules whose `when` reads the parent start to bind when the parent changes (RECEIPT_REQUIRED
  // once the claim is submitted); rules relating the row's own data to a parent field
  // (`currency = claim.currency`, `sum(...) <= budget.cap`) are invariants a parent change
  // must keep. A rule reading only the parent (`ticket.status != closed`,
  // `category is empty or category.active = true`) guards writes of the child and must not
  // block the parent (docs/security.md, "Parent changes").
  // A rule checked when its own field changes is not the parent's business.
  if (rule.onChange || node.checkable) return [];
  const hops = new Set<string>();
  const when = node.when ? typedOf(node.when) : undefined;
  if (when) hopsRead(when, hops);
  const typed = typedOf(node.rule);
  const ruleHops = hopsRead(typed, new Set());
  if (relatesOwnData(typed, ruleHops)) for (const h of ruleHops) hops.add(h);
  const blocks: string[] = [];
  for (const hop of [...hops].sort()) {
    if (referenceOf(model, child, hop) !== parent) continue;
    // `id`: which row (the UI names the line whose receipt is missing).
    const params: Record<string, string> = { entity: quoteLiteral(child), id: 'c.id' };
    if (rule.field) params.field = quoteLiteral(rule.field);
    Object.assign(params, errorParamsSql(model, node, 'c'));
    // Only a change of a field the rule reads can change its outcome: an unrelated edit of the
    // parent (its notes) is not refused for a child that broke the rule before it existed (rows
    // kept by a migration, which does not re-check them).
    const read = fieldsReadThrough(typed, hop, new Set());
    if (when) fieldsReadThrough(when, hop, read);
    const changed = [...read].sort().map((f) => {
      const c = colSql(model, parent, f);
      return `new.${c} is distinct from old.${c}`;
    });
    const loop = [
      `for c in select * from ${tableRef(model, child)} x where x.${colSql(model, child, hop)} = new.id loop`,
      ...ordered(model, ruleLocks(model, node, 'c')).map((l) => `  ${l}`),
      `  if not (${rowRuleHolds(model, node, 'c')}) then`,
      `    ${raiseSql(rule.error, params)}`,
      '  end if;',
      'end loop;',
    ];
    blocks.push(
      changed.length === 0
        ? loop.join('\n')
        : [`if ${changed.join(' or ')} then`, ...loop.map((l) => `  ${l}`), 'end if;'].join('\n'),
    );
  }
  return blocks;
}
