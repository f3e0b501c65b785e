import { FIELD_FORMATS } from '../model/formats.ts';
import { tableName } from '../naming.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import type { AppSpec, FieldRuleSpec, RowRuleSpec } from '../spec/types.ts';
import { columnFor } from './columns.ts';
import { compileRuleSql, type SqlRuleContext } from './compileRuleSql.ts';
import { validationConstraintName } from './constraintNames.ts';
import { countFilterFor } from './emitCountVisibility.ts';
import { locksForTexts, ordered } from './emitGroupLocks.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { referencedEntity, tableRef } from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';
import { readsBeyondRow, typedRule } from './typedRule.ts';

function fieldColumn(spec: AppSpec, entity: string, field: string): string {
  return quoteIdent(columnFor(spec, entity, field));
}

function numberOf(spec: AppSpec, v: number | string, where: string): number {
  if (typeof v === 'number') return v;
  const c = spec.constants[v]?.value;
  if (typeof c !== 'number') throw new Error(`${where}: constant "${v}" is not a number`);
  return c;
}

/** The boolean SQL of a field rule; an empty field always passes (required-ness is NOT NULL's job). */
export function fieldRuleSql(spec: AppSpec, entity: string, rule: FieldRuleSpec, where: string): string {
  const c = fieldColumn(spec, entity, rule.field);
  const f = spec.entities[entity]?.fields[rule.field];
  const len = f?.type === 'tags' ? `cardinality(${c})` : `char_length(${c})`;
  const parts: string[] = [];
  if (rule.minLength !== undefined)
    parts.push(`${len} >= ${quoteLiteral(numberOf(spec, rule.minLength, where))}`);
  if (rule.maxLength !== undefined)
    parts.push(`${len} <= ${quoteLiteral(numberOf(spec, rule.maxLength, where))}`);
  if (rule.min !== undefined) parts.push(`${c} >= ${quoteLiteral(numberOf(spec, rule.min, where))}`);
  if (rule.max !== undefined) parts.push(`${c} <= ${quoteLiteral(numberOf(spec, rule.max, where))}`);
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
export function rowRuleHolds(
  spec: AppSpec,
  entity: string,
  rule: RowRuleSpec,
  row: string,
  where: string,
  everyRow = false,
): string {
  // Counts read other rows only in the triggers (row variable set); CHECKs (row '') have none.
  const ctx: SqlRuleContext =
    row === '' || everyRow ? { spec, row } : { spec, row, countFilter: countFilterFor(entity, row) };
  const holds = `coalesce(${compileRuleSql(typedRule(spec, rule.rule, entity, `${where}.rule`), ctx)}, false)`;
  if (rule.when === undefined) return holds;
  const when = compileRuleSql(typedRule(spec, rule.when, entity, `${where}.when`), ctx);
  return `not coalesce(${when}, false) or ${holds}`;
}

export function isCheckable(spec: AppSpec, entity: string, rule: RowRuleSpec, where: string): boolean {
  // A CHECK holds on every write; a rule checked only when its field changes needs the old row.
  if (rule.onChange) return false;
  const texts = rule.when === undefined ? [rule.rule] : [rule.rule, rule.when];
  return texts.every((t) => !readsBeyondRow(typedRule(spec, t, entity, where)));
}

/** CHECK constraint clauses (for `create table`) of an entity's field rules and row-local row rules. */
export function validationChecks(spec: AppSpec, entity: string): string[] {
  const out: string[] = [];
  (spec.validation[entity] ?? []).forEach((rule, i) => {
    const where = `validation.${entity}.${i}`;
    const name = quoteIdent(validationConstraintName(entity, rule.error, i));
    if (rule.kind === 'field') {
      out.push(`constraint ${name} check (${fieldRuleSql(spec, entity, rule, where)})`);
    } else if (isCheckable(spec, entity, rule, where)) {
      out.push(`constraint ${name} check (${rowRuleHolds(spec, entity, rule, '', where)})`);
    }
  });
  return out;
}

/**
 * An AFTER INSERT/UPDATE trigger for row rules that read other rows, the user or the clock.
 * SECURITY DEFINER so counts see every row, not just those the writer may read.
 * AFTER, because a rule describes the data once written: `count(attachment where ticket =
 * this.ticket) <= maxAttachmentsPerTicket` must count the attachment being added (a BEFORE
 * trigger let the 21st of 20 through). Raising here still rolls the statement back.
 */
export function emitValidationTrigger(spec: AppSpec, entity: string): string {
  const checks: string[] = [];
  const locks: ReturnType<typeof locksForTexts> = [];
  (spec.validation[entity] ?? []).forEach((rule, i) => {
    const where = `validation.${entity}.${i}`;
    if (rule.kind !== 'row' || isCheckable(spec, entity, rule, where)) return;
    locks.push(...ruleTextLocks(spec, entity, rule, where, 'new'));
    const params: Record<string, string> = { entity: quoteLiteral(entity) };
    if (rule.field) params.field = quoteLiteral(rule.field);
    // `onChange`: on insert, and on an update that changes the field (not on every later write).
    const written =
      rule.onChange && rule.field
        ? `(tg_op = 'INSERT' or new.${fieldColumn(spec, entity, rule.field)} is distinct from old.${fieldColumn(spec, entity, rule.field)}) and `
        : '';
    checks.push(
      [
        `if ${written}not (${rowRuleHolds(spec, entity, rule, 'new', where)}) then`,
        `  ${raiseSql(rule.error, params)}`,
        'end if;',
      ].join('\n'),
    );
  });
  const revalidate = emitParentRevalidation(spec, entity);
  if (checks.length === 0) return revalidate;
  const fn = `app.${quoteIdent(`${tableName(entity)}__validate`)}`;
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: true,
      body: `begin\n${indent([...ordered(spec, locks), ...checks].join('\n'))}\n  return null;\nend;`,
      executeTo: [],
      comment: `Validation of ${entity} that reads beyond the row (raises the rule's catalogue code).`,
    }),
    sqlTrigger('ninefold_30_validate', 'after insert or update', tableRef(entity), fn),
    ...(revalidate ? [revalidate] : []),
  ].join('\n');
}

/** Lock statements (emitGroupLocks.ts) for the counts and sums of a row rule, on row variable `row`. */
function ruleTextLocks(spec: AppSpec, entity: string, rule: RowRuleSpec, where: string, row: string) {
  const texts = [{ text: rule.rule, where: `${where}.rule` }];
  if (rule.when !== undefined) texts.push({ text: rule.when, where: `${where}.when` });
  return locksForTexts(spec, entity, texts, row);
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
function fieldsReadThrough(t: Typed, hop: string, out: Set<string>): Set<string> {
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
export function emitParentRevalidation(spec: AppSpec, parent: string): string {
  const blocks: string[] = [];
  for (const [child, rules] of Object.entries(spec.validation)) {
    rules.forEach((rule, i) => {
      const where = `validation.${child}.${i}`;
      // Rules whose `when` reads the parent start to bind when the parent changes (RECEIPT_REQUIRED
      // once the claim is submitted); rules relating the row's own data to a parent field
      // (`currency = claim.currency`, `sum(...) <= budget.cap`) are invariants a parent change
      // must keep. A rule reading only the parent (`ticket.status != closed`,
      // `category is empty or category.active = true`) guards writes of the child and must not
      // block the parent (docs/security.md, "Parent changes").
      // A rule checked when its own field changes is not the parent's business.
      if (rule.kind !== 'row' || rule.onChange || isCheckable(spec, child, rule, where)) return;
      const hops = new Set<string>();
      if (rule.when !== undefined) hopsRead(typedRule(spec, rule.when, child, `${where}.when`), hops);
      const typed = typedRule(spec, rule.rule, child, `${where}.rule`);
      const ruleHops = hopsRead(typed, new Set());
      if (relatesOwnData(typed, ruleHops)) for (const h of ruleHops) hops.add(h);
      for (const hop of [...hops].sort()) {
        const f = spec.entities[child]?.fields[hop];
        if (!f || referencedEntity(spec, f) !== parent) continue;
        // `id`: which row (the UI names the line whose receipt is missing).
        const params: Record<string, string> = { entity: quoteLiteral(child), id: 'c.id' };
        if (rule.field) params.field = quoteLiteral(rule.field);
        // Only a change of a field the rule reads can change its outcome: an unrelated edit of the
        // parent (its notes) is not refused for a child that broke the rule before it existed (rows
        // kept by a migration, which does not re-check them).
        const read = fieldsReadThrough(typed, hop, new Set());
        if (rule.when !== undefined)
          fieldsReadThrough(typedRule(spec, rule.when, child, `${where}.when`), hop, read);
        const changed = [...read].sort().map((f) => {
          const c = quoteIdent(columnFor(spec, parent, f));
          return `new.${c} is distinct from old.${c}`;
        });
        const loop = [
          `for c in select * from ${tableRef(child)} x where x.${quoteIdent(columnFor(spec, child, hop))} = new.id loop`,
          ...ordered(spec, ruleTextLocks(spec, child, rule, where, 'c')).map((l) => `  ${l}`),
          `  if not (${rowRuleHolds(spec, child, rule, 'c', where)}) then`,
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
    });
  }
  if (blocks.length === 0) return '';
  const fn = `app.${quoteIdent(`${tableName(parent)}__revalidate_dependents`)}`;
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
    sqlTrigger('ninefold_40_revalidate', 'after update', tableRef(parent), fn),
  ].join('\n');
}
