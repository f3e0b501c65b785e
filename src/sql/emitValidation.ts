import { tableName } from '../naming.ts';
import type { AppSpec, FieldRuleSpec, RowRuleSpec } from '../spec/types.ts';
import { columnFor } from './columns.ts';
import { compileRuleSql } from './compileRuleSql.ts';
import { validationConstraintName } from './constraintNames.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { tableRef } from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';
import { readsBeyondRow, typedRule } from './typedRule.ts';

/**
 * Patterns of the `format` field rules (POSIX regular expressions, case-insensitive `~*`).
 * Written so the same text is a valid JavaScript RegExp with the `i` flag: the browser reuses them.
 */
export const FORMAT_PATTERNS: Record<NonNullable<FieldRuleSpec['format']>, string> = {
  email: '^[^@[:space:]]+@[^@[:space:]]+\\.[^@[:space:]]+$',
  url: '^https?://[^[:space:]]+$',
  phone: '^\\+?[0-9 ()./-]{6,20}$',
  currency: '^[A-Z]{3}$',
};

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
  if (rule.format !== undefined) parts.push(`${c} ~* ${quoteLiteral(FORMAT_PATTERNS[rule.format])}`);
  if (parts.length === 0) throw new Error(`${where}: a field rule needs a constraint`);
  return `${c} is null or (${parts.join(' and ')})`;
}

/**
 * The holds-condition of a row rule: `when` unknown counts as not applying; the rule itself
 * unknown counts as failing ("a rule whose result is unknown does not hold").
 */
function rowRuleHolds(spec: AppSpec, entity: string, rule: RowRuleSpec, row: string, where: string): string {
  const ctx = { spec, row };
  const holds = `coalesce(${compileRuleSql(typedRule(spec, rule.rule, entity, `${where}.rule`), ctx)}, false)`;
  if (rule.when === undefined) return holds;
  const when = compileRuleSql(typedRule(spec, rule.when, entity, `${where}.when`), ctx);
  return `not coalesce(${when}, false) or ${holds}`;
}

function isCheckable(spec: AppSpec, entity: string, rule: RowRuleSpec, where: string): boolean {
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
 * A BEFORE INSERT/UPDATE trigger for row rules that read other rows, the user or the clock.
 * SECURITY DEFINER so counts see every row, not just those the writer may read.
 * The row being written is not yet in the table when its rule is checked.
 */
export function emitValidationTrigger(spec: AppSpec, entity: string): string {
  const checks: string[] = [];
  (spec.validation[entity] ?? []).forEach((rule, i) => {
    const where = `validation.${entity}.${i}`;
    if (rule.kind !== 'row' || isCheckable(spec, entity, rule, where)) return;
    const params: Record<string, string> = { entity: quoteLiteral(entity) };
    if (rule.field) params.field = quoteLiteral(rule.field);
    checks.push(
      [
        `if not (${rowRuleHolds(spec, entity, rule, 'new', where)}) then`,
        `  ${raiseSql(rule.error, params)}`,
        'end if;',
      ].join('\n'),
    );
  });
  if (checks.length === 0) return '';
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
      body: `begin\n${indent(checks.join('\n'))}\n  return new;\nend;`,
      executeTo: [],
      comment: `Validation of ${entity} that reads beyond the row (raises the rule's catalogue code).`,
    }),
    sqlTrigger('ninefold_30_validate', 'before insert or update', tableRef(entity), fn),
  ].join('\n');
}
