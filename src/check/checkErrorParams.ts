import type { Diagnostic } from '../diagnostics.ts';
import type { Typed } from '../rules/ast.ts';
import { checkRule } from '../rules/index.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { didYouMean } from '../spec/didYouMean.ts';
import { type ErrorParamSource, errorParamSource, PARAM_NAME } from '../spec/errorParams.ts';
import { own } from '../spec/specRefs.ts';
import { at, report } from '../spec/specShape.ts';
import type { AppSpec } from '../spec/types.ts';
import { errorUses } from './errorUses.ts';

/** Names the server's error always carries (mapDatabaseError reads `entity` and `field`). */
const RESERVED = ['entity', 'field', 'id'];
const IMPLICIT = ['id', 'createdAt', 'updatedAt', 'version'];

/**
 * Every declared message parameter (`errors.<CODE>.params`) can be supplied by every rule that
 * raises the code: only row rules send parameters (a CHECK, a unique key, a guard or a call has
 * none to send); a field must exist on the row (or on the counted row for `other.<field>`); `sum`,
 * `count` and `other.<field>` need exactly one such aggregate in the rule.
 *
 * @example
 * checkErrorParams(spec, out); // out: [{ code: 'spec/unknown-name', path: 'errors.DAY_FULL.params.day', ... }]
 */
export function checkErrorParams(spec: AppSpec, out: Diagnostic[]): void {
  const uses = errorUses(spec);
  for (const [code, e] of Object.entries(spec.errors)) {
    const params = Object.entries(e.params ?? {});
    if (params.length === 0) continue;
    const raisers = uses.filter((u) => u.code === code);
    for (const u of raisers) {
      if (!/^validation\./.test(u.path) || rowRuleAt(spec, u.path) === undefined)
        report(
          out,
          'spec/invalid-value',
          at(at('errors', code), 'params'),
          `${u.path} raises ${code}, but only row rules send message parameters`,
          'raise this code from a row rule (`kind: "row"`) only, or name constants in the message instead',
        );
    }
    for (const [name, text] of params) {
      const path = at(at(at('errors', code), 'params'), name);
      if (!PARAM_NAME.test(name) || RESERVED.includes(name)) {
        report(
          out,
          'spec/invalid-name',
          path,
          `"${name}" cannot name a message parameter`,
          RESERVED.includes(name)
            ? `"${name}" is sent with every error; choose another name`
            : 'use letters, digits and _ only, as {placeholders} are written',
        );
        continue;
      }
      const source = errorParamSource(text);
      if (!source) {
        report(
          out,
          'spec/invalid-value',
          path,
          `parameter source "${text}" is none of: a field of the row, other.<field>, sum, count`,
          'write `date` (the row written), `other.start` (the row that made the rule fail), `sum` or `count`',
        );
        continue;
      }
      for (const u of raisers) {
        const rule = rowRuleAt(spec, u.path);
        if (!rule || u.entity === null) continue;
        if (fieldsOf(spec, u.entity).includes(name) && !(source.kind === 'field' && source.field === name)) {
          // The form's own check fills placeholders from the row's values, by field name.
          report(
            out,
            'spec/invalid-name',
            path,
            `${u.path}: parameter "${name}" is also a field of ${u.entity}, whose value a form would show instead`,
            `choose another name, e.g. "${source.kind === 'other' ? `other${name[0]!.toUpperCase()}${name.slice(1)}` : `${name}Value`}"`,
          );
          continue;
        }
        const problem = unsupplied(spec, u.entity, rule, source);
        if (problem) report(out, 'spec/unknown-name', path, `${u.path}: ${problem.message}`, problem.hint);
        const hidden = problem ? undefined : hiddenField(spec, u.entity, rule, source);
        if (hidden)
          report(
            out,
            'spec/invalid-value',
            path,
            `${u.path}: parameter "${name}" would show ${hidden}, which only some may read (its \`read\` rule), to whoever the rule refuses`,
            'take the parameter from a field everyone who writes the row may read, or leave it out of the message',
          );
      }
    }
  }
}

/**
 * The checked rule of the row rule at `validation.<entity>[i].error`; `null` for a row rule that
 * does not check (reported where it is written), `undefined` for anything but a row rule.
 */
function rowRuleAt(spec: AppSpec, usePath: string): Typed | null | undefined {
  const m = /^validation\.(\w+)\[(\d+)\]/.exec(usePath);
  if (!m) return undefined;
  const r = spec.validation[m[1]!]?.[Number(m[2])];
  if (r?.kind !== 'row') return undefined;
  const checked = checkRule(spec, r.rule, { entity: m[1]! });
  return checked.ok ? checked.typed : null;
}

function aggregates(t: Typed, kind: 'count' | 'sum', found: Typed[] = []): Typed[] {
  if (t.kind === kind) found.push(t);
  for (const c of typedChildren(t)) aggregates(c, kind, found);
  return found;
}

/**
 * The read-restricted field (`entity.field`) a parameter would read, if any: a field's `read` rule
 * masks it in every answer, and an error is an answer (the writer may not read it on this row, or
 * on the row the count found, or in the rows a sum adds up).
 */
function hiddenField(
  spec: AppSpec,
  entity: string,
  rule: Typed,
  source: ErrorParamSource,
): string | undefined {
  const restricted = (e: string, f: string) =>
    own(own(spec.entities, e)?.fields ?? {}, f)?.read !== undefined ? `${e}.${f}` : undefined;
  if (source.kind === 'field') return restricted(entity, source.field);
  if (source.kind === 'other') {
    const counted = aggregates(rule, 'count')[0] as Extract<Typed, { kind: 'count' }> | undefined;
    return counted && restricted(counted.entity, source.field);
  }
  if (source.kind !== 'sum') return undefined;
  const summed = aggregates(rule, 'sum')[0] as Extract<Typed, { kind: 'sum' }> | undefined;
  return summed && restricted(summed.entity, summed.field);
}

function fieldsOf(spec: AppSpec, entity: string): string[] {
  return [...IMPLICIT, ...Object.keys(own(spec.entities, entity)?.fields ?? {})];
}

/** Why a rule on `entity` cannot supply `source`, with a suggestion; `undefined` when it can. */
function unsupplied(
  spec: AppSpec,
  entity: string,
  rule: Typed,
  source: ErrorParamSource,
): { message: string; hint: string } | undefined {
  if (source.kind === 'field') {
    const names = fieldsOf(spec, entity);
    if (names.includes(source.field)) return undefined;
    return {
      message: `${entity} has no field "${source.field}"`,
      hint: didYouMean(source.field, names) ?? `name a field of ${entity}`,
    };
  }
  const kind = source.kind === 'sum' ? 'sum' : 'count';
  const found = aggregates(rule, kind);
  if (found.length !== 1)
    return {
      message: `the rule has ${found.length === 0 ? 'no' : 'more than one'} ${kind}(...) to take "${source.kind === 'other' ? `other.${source.field}` : kind}" from`,
      hint:
        found.length === 0
          ? `take the value from the row (a field of ${entity}) or a constant`
          : `split the rule so that each has one ${kind}(...)`,
    };
  if (source.kind !== 'other') return undefined;
  const counted = (found[0] as Extract<Typed, { kind: 'count' }>).entity;
  const names = fieldsOf(spec, counted);
  if (names.includes(source.field)) return undefined;
  return {
    message: `the counted ${counted} has no field "${source.field}"`,
    hint: didYouMean(source.field, names) ?? `name a field of ${counted}`,
  };
}
