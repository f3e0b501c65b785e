import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { type ErrorParamSource, errorParamSource } from '../spec/errorParams.ts';
import type { AppSpec } from '../spec/types.ts';
import type { TableNode } from './table.ts';
import type { RowRuleNode } from './validationRule.ts';

/** A declared message parameter, and the field whose value it carries (how the browser formats it). */
export interface ErrorParamNode {
  name: string;
  source: ErrorParamSource;
  /** Entity and field the value is read from (none for a `count`); from the first rule raising the code. */
  entity?: string;
  field?: string;
}

/** The `count(...)` and `sum(...)` nodes of a typed rule, outermost first. */
export function aggregatesOf(t: Typed, out: Typed[] = []): Extract<Typed, { kind: 'count' | 'sum' }>[] {
  if (t.kind === 'count' || t.kind === 'sum') out.push(t);
  for (const c of typedChildren(t)) aggregatesOf(c, out);
  return out as Extract<Typed, { kind: 'count' | 'sum' }>[];
}

/** The one aggregate of `kind` a rule holds, or `undefined` when it holds none or several. */
export function oneAggregate<K extends 'count' | 'sum'>(
  rule: RowRuleNode,
  kind: K,
): Extract<Typed, { kind: K }> | undefined {
  const typed = rule.rule.typed;
  if (!typed) return undefined;
  const found = aggregatesOf(typed).filter((a) => a.kind === kind);
  return found.length === 1 ? (found[0] as Extract<Typed, { kind: K }>) : undefined;
}

/** The row rules of every table that raise `code`. */
export function rowRulesRaising(tables: ReadonlyMap<string, TableNode>, code: string): RowRuleNode[] {
  return [...tables.values()].flatMap((t) =>
    t.rules.filter((r): r is RowRuleNode => r.kind === 'row' && r.spec.error === code),
  );
}

/**
 * The declared parameters of an error code, each with the field its value comes from in the first
 * row rule raising the code (`validateSpec` has made sure every raising rule can supply them).
 */
export function errorParamsOf(
  spec: AppSpec,
  tables: ReadonlyMap<string, TableNode>,
  code: string,
): ErrorParamNode[] | undefined {
  const declared = spec.errors[code]?.params;
  if (declared === undefined || Object.keys(declared).length === 0) return undefined;
  const rule = rowRulesRaising(tables, code)[0];
  return Object.entries(declared).flatMap(([name, text]) => {
    const source = errorParamSource(text);
    if (!source) return [];
    const node: ErrorParamNode = { name, source };
    const at = rule ? whereFrom(rule, source) : undefined;
    if (at) Object.assign(node, at);
    return [node];
  });
}

function whereFrom(
  rule: RowRuleNode,
  source: ErrorParamSource,
): { entity: string; field?: string } | undefined {
  if (source.kind === 'field') return { entity: rule.entity, field: source.field };
  if (source.kind === 'other') {
    const c = oneAggregate(rule, 'count');
    return c ? { entity: c.entity, field: source.field } : undefined;
  }
  if (source.kind === 'sum') {
    const s = oneAggregate(rule, 'sum');
    return s ? { entity: s.entity, field: s.field } : undefined;
  }
  return undefined;
}
