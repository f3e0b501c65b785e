import type { Diagnostic } from '../diagnostics.ts';
import type { RuleType } from '../rules/ast.ts';
import { checkRule, typeName } from '../rules/check.ts';
import { type PayloadKeyFill, payloadFills, refsTo, shapeKeys, templateParts } from '../spec/callFills.ts';
import { didYouMean } from '../spec/didYouMean.ts';
import { at } from '../spec/specShape.ts';
import { transitionCalls } from '../spec/transitionCalls.ts';
import type { AppSpec, ShapeType } from '../spec/types.ts';

/** Words for a payload shape type in messages. */
function shapeWords(t: ShapeType): string {
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return 'a list';
  return 'an object';
}

/** Whether a rule value of type `t` fits a payload key of shape `shape` (as JSON). */
export function shapeAccepts(shape: ShapeType, t: RuleType): boolean {
  switch (shape) {
    case 'string':
      return ['text', 'enum', 'date', 'datetime'].includes(t.kind);
    case 'email':
      return t.kind === 'text';
    case 'uuid':
      return t.kind === 'ref';
    case 'number':
    case 'integer':
      return t.kind === 'number';
    case 'boolean':
      return t.kind === 'boolean';
    case 'datetime':
      return t.kind === 'datetime' || t.kind === 'date';
    default:
      return false;
  }
}

interface Ctx {
  spec: AppSpec;
  out: Diagnostic[];
  /** `entity.transition` that queues the call, for messages. */
  by: string;
}

function ruleDiagnostics(ctx: Ctx, path: string, text: string, entity: string, offset = 0): RuleType | null {
  const r = checkRule(ctx.spec, text, { entity, expect: 'value' });
  if (r.ok) return r.typed.type;
  for (const e of r.errors) {
    const d: Diagnostic = {
      code: e.code,
      severity: 'error',
      path,
      message: `${e.message} in ${JSON.stringify(text)} (over ${entity})`,
      span: { start: e.span.start + offset, end: e.span.end + offset },
    };
    if (e.hint !== undefined) d.hint = e.hint;
    ctx.out.push(d);
  }
  return null;
}

function checkKeys(
  ctx: Ctx,
  entity: string,
  fills: readonly PayloadKeyFill[],
  path: string,
  shape: Record<string, ShapeType>,
) {
  const keys = shapeKeys(shape);
  const filled = new Set(fills.filter((f) => f.shape !== undefined).map((f) => f.key));
  for (const f of fills) {
    const p = at(path, f.key);
    if (f.shape === undefined) {
      ctx.out.push({
        code: 'spec/unknown-name',
        severity: 'error',
        path: p,
        message: `"${f.key}" is not a key of the payload`,
        hint: didYouMean(f.key, [...keys.keys()]) ?? `payload keys: ${[...keys.keys()].join(', ')}`,
      });
      continue;
    }
    checkFill(ctx, entity, f, p);
  }
  for (const [key, [optional, type]] of keys) {
    if (optional || filled.has(key)) continue;
    ctx.out.push({
      code: 'spec/missing',
      severity: 'error',
      path: at(path, key),
      message: `payload key "${key}" (${shapeWords(type)}) is required, but nothing fills it when ${ctx.by} queues the call`,
      hint: Array.isArray(type)
        ? `fill it with the rows of a child entity: { rows: 'line', fill: { … } }`
        : `fill it with a value over ${entity}, e.g. a field name, "other.field" or 'text with {field}'`,
    });
  }
}

function checkFill(ctx: Ctx, entity: string, f: PayloadKeyFill, path: string): void {
  const shape = f.shape as ShapeType;
  const src = f.source;
  if (src.kind === 'rows') {
    const item = Array.isArray(shape) ? shape[0] : undefined;
    if (typeof item !== 'object' || Array.isArray(item)) {
      ctx.out.push({
        code: 'spec/type',
        severity: 'error',
        path,
        message: `"${f.key}" is ${shapeWords(shape)}; only a list of objects is filled from rows`,
      });
      return;
    }
    if (!Object.hasOwn(ctx.spec.entities, src.entity)) {
      ctx.out.push({
        code: 'spec/unknown-name',
        severity: 'error',
        path: `${path}.rows`,
        message: `unknown entity "${src.entity}"`,
        hint: didYouMean(src.entity, Object.keys(ctx.spec.entities)) ?? 'name a child entity',
      });
      return;
    }
    const refs = refsTo(ctx.spec, src.entity, entity);
    if (refs.length !== 1) {
      ctx.out.push({
        code: 'spec/invalid-value',
        severity: 'error',
        path: `${path}.rows`,
        message:
          refs.length === 0
            ? `${src.entity} has no reference to ${entity}, so it has no rows under it`
            : `${src.entity} references ${entity} through ${refs.join(' and ')}: which rows are meant is ambiguous`,
      });
      return;
    }
    checkKeys(ctx, src.entity, src.items, `${path}.fill`, item);
    return;
  }
  if (src.kind === 'template') {
    if (shape !== 'string' && shape !== 'email') {
      ctx.out.push({
        code: 'rule/type',
        severity: 'error',
        path,
        message: `a {template} makes text, but payload key "${f.key}" is ${shapeWords(shape)}`,
      });
    }
    for (const part of templateParts(src.text))
      if (part.kind === 'value') ruleDiagnostics(ctx, path, part.text, entity, part.start);
    return;
  }
  const type = ruleDiagnostics(ctx, path, src.text, entity);
  if (type === null) return;
  if (type.kind === 'null' ? !f.optional : !shapeAccepts(shape, type)) {
    ctx.out.push({
      code: 'rule/type',
      severity: 'error',
      path,
      message: `${JSON.stringify(src.text)} is ${typeName(type)} over ${entity}, but payload key "${f.key}" is ${
        type.kind === 'null' ? 'required' : shapeWords(shape)
      }`,
    });
  }
}

/**
 * The payload mappings of declared calls (`calls.declared.<call>.fill`), for each transition that
 * queues the call: every key named is a payload key, every value checks in the rule language over
 * the transitioned row and fits the key's type, a list is filled from a child entity with exactly
 * one reference to the row, and every required key is filled (the database is the only author of
 * a transition's call: the browser sends none of it).
 */
export function checkCallFills(spec: AppSpec, out: Diagnostic[]): void {
  const bound = transitionCalls(spec);
  for (const [name, c] of Object.entries(spec.calls.declared)) {
    const base = at(at('calls.declared', name), 'fill');
    const by = bound.get(name) ?? [];
    if (by.length === 0) {
      if (c.fill && Object.keys(c.fill).length > 0)
        out.push({
          code: 'spec/invalid-value',
          severity: 'warning',
          path: base,
          message: `no transition lists "${name}", so nothing fills its payload`,
          hint: `list it in a transition's calls, or remove fill`,
        });
      continue;
    }
    const seen = new Set<string>();
    for (const t of by) {
      const entity = t.slice(0, t.indexOf('.'));
      if (seen.has(entity)) continue;
      seen.add(entity);
      checkKeys({ spec, out, by: t }, entity, payloadFills(spec, entity, name), base, c.payload);
    }
  }
}
