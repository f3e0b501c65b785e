import type { AppModel } from '../model/appModel.ts';
import type { DeclaredCallSpec, ShapeSpec, ShapeType } from '../spec/types.ts';
import { BackendError } from './types.ts';

/** One place where a value does not fit its shape. `path` is dotted (`items.2.amount`). */
export interface ShapeIssue {
  path: string;
  problem: 'missing' | 'unexpected' | 'type';
  /** The expected shape type, for `type` and `missing`. */
  expected?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Deliberately loose (one @, a dot in the domain): the same check the forms use is the rule's job.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(t: ShapeType): string {
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return `${describe((t as readonly [ShapeType])[0])}[]`;
  return 'object';
}

function checkValue(value: unknown, type: ShapeType, path: string, out: ShapeIssue[]): void {
  if (typeof type === 'string') {
    const ok =
      (type === 'string' && typeof value === 'string') ||
      (type === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
      (type === 'integer' && typeof value === 'number' && Number.isInteger(value)) ||
      (type === 'boolean' && typeof value === 'boolean') ||
      (type === 'uuid' && typeof value === 'string' && UUID.test(value)) ||
      (type === 'email' && typeof value === 'string' && EMAIL.test(value)) ||
      (type === 'datetime' &&
        typeof value === 'string' &&
        DATETIME.test(value) &&
        !Number.isNaN(Date.parse(value)));
    if (!ok) out.push({ path, problem: 'type', expected: type });
    return;
  }
  if (Array.isArray(type)) {
    const item = (type as readonly [ShapeType])[0];
    if (!Array.isArray(value)) {
      out.push({ path, problem: 'type', expected: describe(type) });
      return;
    }
    value.forEach((v, i) => {
      checkValue(v, item, path ? `${path}.${i}` : String(i), out);
    });
    return;
  }
  if (!isRecord(value)) {
    out.push({ path, problem: 'type', expected: 'object' });
    return;
  }
  checkObject(value, type as ShapeSpec, path, out);
}

function checkObject(
  value: Record<string, unknown>,
  shape: ShapeSpec,
  prefix: string,
  out: ShapeIssue[],
): void {
  const known = new Set<string>();
  for (const [rawName, type] of Object.entries(shape)) {
    const optional = rawName.endsWith('?');
    const name = optional ? rawName.slice(0, -1) : rawName;
    known.add(name);
    const path = prefix ? `${prefix}.${name}` : name;
    const v = value[name];
    if (v === undefined || v === null) {
      if (!optional) out.push({ path, problem: 'missing', expected: describe(type) });
      continue;
    }
    checkValue(v, type, path, out);
  }
  for (const name of Object.keys(value)) {
    // Extra keys are refused: a payload sent to another service must say exactly what the spec declares.
    if (!known.has(name)) out.push({ path: prefix ? `${prefix}.${name}` : name, problem: 'unexpected' });
  }
}

/**
 * Checks a payload against a declared call's shape; returns the issues (empty when it fits).
 *
 * @example
 * checkShape({ to: 'a@b.co', 'cc?': ['email'] }, { to: 'x' });
 * // [{ path: 'to', problem: 'type', expected: 'email' }]
 */
export function checkShape(shape: ShapeSpec, value: unknown): ShapeIssue[] {
  const out: ShapeIssue[] = [];
  if (!isRecord(value)) return [{ path: '', problem: 'type', expected: 'object' }];
  checkObject(value, shape, '', out);
  return out;
}

/**
 * The declared call `name` of the specification, with `payload` checked against its shape — what
 * every adapter does before a call leaves: UNKNOWN_CALL or INVALID_INPUT (with the issues) otherwise.
 *
 * @example
 * const call = declaredCall(model, 'notifyRequester', payload); // throws BackendError on a bad payload
 */
export function declaredCall(model: AppModel, name: string, payload: unknown): DeclaredCallSpec {
  const call = model.calls.get(name);
  if (!call) throw new BackendError('UNKNOWN_CALL', { call: name });
  const issues = checkShape(call.payload, payload);
  if (issues.length > 0) throw new BackendError('INVALID_INPUT', { call: name, issues });
  return call;
}

/**
 * The declared calls some transition lists, each with its transitions (`ticket.solve`): such a call
 * is queued by its transition when it commits, never on a client's request.
 *
 * @example
 * transitionCalls(model); // Map { 'notifyRequester' => ['ticket.solve'] }
 */
export function transitionCalls(model: AppModel): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const t of model.transitions)
    for (const call of t.calls) out.set(call, [...(out.get(call) ?? []), `${t.entity}.${t.name}`]);
  return out;
}
