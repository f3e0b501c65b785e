import type { Diagnostic, DiagnosticCode } from '../diagnostics.ts';
import { didYouMean } from './didYouMean.ts';
import { FIELD_TYPE_NAMES } from './fieldTypes.ts';
import { type NameKind, nameProblem } from './specNames.ts';

/**
 * The shape of a specification as small composable checks. Each check reports into `out`
 * and returns whether the value had the right shape, so callers can stop before reading
 * deeper into a value that is not what the types promise.
 */
export type Check = (value: unknown, path: string, out: Diagnostic[]) => boolean;

type Rec = Record<string, unknown>;

/**
 * A plain object (object literal, JSON object or null-prototype object). Anything with another
 * prototype is refused: inherited properties would be read later as if they were spec data.
 */
export function isRecord(v: unknown): v is Rec {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A key appended to a path: dotted when it is a plain name, quoted otherwise. */
export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  const part = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (path === '') return part;
  return part.startsWith('[') ? `${path}${part}` : `${path}.${part}`;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `text ${JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

export function report(
  out: Diagnostic[],
  code: DiagnosticCode,
  path: string,
  message: string,
  hint?: string,
): false {
  out.push(
    hint === undefined
      ? { code, severity: 'error', path, message }
      : { code, severity: 'error', path, message, hint },
  );
  return false;
}

function typed(what: string, test: (v: unknown) => boolean): Check {
  return (v, path, out) => test(v) || report(out, 'spec/type', path, `expected ${what}, got ${describe(v)}`);
}

export const str = typed('text', (v) => typeof v === 'string');
export const bool = typed('true or false', (v) => typeof v === 'boolean');
export const num = typed('a number', (v) => typeof v === 'number' && Number.isFinite(v));
export const nonEmpty: Check = (v, path, out) =>
  str(v, path, out) &&
  ((v as string).trim() !== '' || report(out, 'spec/invalid-value', path, 'must not be empty'));

/** One of a fixed set of strings. */
export function oneOf(values: readonly string[]): Check {
  return (v, path, out) => {
    if (typeof v === 'string' && values.includes(v)) return true;
    const hint = typeof v === 'string' ? didYouMean(v, values) : undefined;
    return report(
      out,
      typeof v === 'string' ? 'spec/invalid-value' : 'spec/type',
      path,
      `expected one of ${values.map((x) => JSON.stringify(x)).join(', ')}, got ${describe(v)}`,
      hint,
    );
  };
}

export function literal(value: string | boolean): Check {
  return (v, path, out) =>
    v === value ||
    report(out, 'spec/invalid-value', path, `expected ${JSON.stringify(value)}, got ${describe(v)}`);
}

export function arrayOf(item: Check): Check {
  return (v, path, out) => {
    if (!Array.isArray(v)) return report(out, 'spec/type', path, `expected a list, got ${describe(v)}`);
    let ok = true;
    v.forEach((x, i) => {
      ok = item(x, at(path, i), out) && ok;
    });
    return ok;
  };
}

/** An object whose keys are names of one kind (checked) and whose values all pass `item`. */
export function recordOf(item: Check, names?: NameKind): Check {
  return (v, path, out) => {
    if (!isRecord(v)) return report(out, 'spec/type', path, `expected an object, got ${describe(v)}`);
    let ok = true;
    for (const [key, value] of Object.entries(v)) {
      const p = at(path, key);
      const problem = names ? nameProblem(names, key) : null;
      if (problem) ok = report(out, 'spec/invalid-name', p, problem.message, problem.hint);
      ok = item(value, p, out) && ok;
    }
    return ok;
  };
}

type FieldDecl = readonly [Check, 'required' | 'optional'];

/** An object with known keys; unknown keys are errors with a "did you mean". */
export function obj(fields: Record<string, FieldDecl>): Check {
  const known = Object.keys(fields);
  return (v, path, out) => {
    if (!isRecord(v)) return report(out, 'spec/type', path, `expected an object, got ${describe(v)}`);
    let ok = true;
    for (const [key, [check, presence]] of Object.entries(fields)) {
      if (!Object.hasOwn(v, key) || v[key] === undefined) {
        if (presence === 'required') ok = report(out, 'spec/missing', at(path, key), `"${key}" is required`);
        continue;
      }
      ok = check(v[key], at(path, key), out) && ok;
    }
    for (const key of Object.keys(v)) {
      if (known.includes(key)) continue;
      ok = report(
        out,
        'spec/unknown-key',
        at(path, key),
        `unknown key ${JSON.stringify(key)}`,
        didYouMean(key, known) ?? `known keys: ${known.join(', ')}`,
      );
    }
    return ok;
  };
}

/** Tries `checks` in order, silently; reports `what` was expected when none fits. */
export function either(what: string, ...checks: Check[]): Check {
  return (v, path, out) => {
    for (const check of checks) if (check(v, path, [])) return true;
    return report(out, 'spec/type', path, `expected ${what}, got ${describe(v)}`);
  };
}

/** An object whose `discriminant` key picks the check for the rest (a tagged union). */
export function byKind(discriminant: string, variants: Record<string, Check>): Check {
  const kinds = Object.keys(variants);
  return (v, path, out) => {
    if (!isRecord(v)) return report(out, 'spec/type', path, `expected an object, got ${describe(v)}`);
    const kind = v[discriminant];
    const check = typeof kind === 'string' && Object.hasOwn(variants, kind) ? variants[kind] : undefined;
    if (!check) return oneOf(kinds)(kind, at(path, discriminant), out);
    return check(v, path, out);
  };
}

const req = (c: Check): FieldDecl => [c, 'required'];
const opt = (c: Check): FieldDecl => [c, 'optional'];

export const SCREEN_KINDS = ['dashboard', 'list', 'detail', 'form', 'board', 'custom', 'admin'] as const;
export const WIDGET_KINDS = ['byStatus', 'waitingOnMe', 'targets'] as const;
const SHAPE_TYPES = ['string', 'number', 'integer', 'boolean', 'datetime', 'uuid', 'email'];
const strings = arrayOf(str);
const permission = either('true, false or a rule (text)', bool, str);
const numberOrName = either('a number or a constant name', num, str);
const route: Check = (v, path, out) =>
  str(v, path, out) &&
  ((v as string).startsWith('/') ||
    report(
      out,
      'spec/invalid-value',
      path,
      `route ${JSON.stringify(v)} must start with "/"`,
      'e.g. "/tickets/:id"',
    ));

/** A screen's route: a path, matched as one (a query string or fragment in it would never match). */
const screenRoute: Check = (v, path, out) =>
  route(v, path, out) &&
  (!/[?#]/.test(v as string) ||
    report(
      out,
      'spec/invalid-value',
      path,
      `route ${JSON.stringify(v)} has a query string or fragment; a route is a path`,
      `write ${JSON.stringify((v as string).replace(/[?#].*$/, ''))}: a form takes its fields from the link's query string (/loans/new?book=<id>)`,
    ));

/** A payload key's source (`PayloadFill`): a value or template, or the rows of a child entity. */
const payloadFill: Check = (v, path, out) =>
  typeof v === 'string' ||
  (isRecord(v) && obj({ rows: req(nonEmpty), fill: opt(recordOf(str)) })(v, path, out)) ||
  (!isRecord(v) &&
    report(
      out,
      'spec/type',
      path,
      `expected a value in the rule language, a {template}, or { rows, fill }, got ${describe(v)}`,
    ));

const scalarDefault: Check = either(
  'text, a number, true/false or null',
  (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v),
);

const MAX_SHAPE_DEPTH = 16;
function shapeType(depth: number): Check {
  return (v, path, out) => {
    if (depth > MAX_SHAPE_DEPTH) return report(out, 'spec/invalid-value', path, 'shape nested too deeply');
    if (typeof v === 'string') return oneOf(SHAPE_TYPES)(v, path, out);
    if (Array.isArray(v)) {
      if (v.length !== 1) {
        return report(
          out,
          'spec/type',
          path,
          'a list shape has exactly one item: the type of its elements',
          'e.g. ["string"]',
        );
      }
      return shapeType(depth + 1)(v[0], at(path, 0), out);
    }
    return shape(depth + 1)(v, path, out);
  };
}
function shape(depth: number): Check {
  return (v, path, out) => {
    if (!isRecord(v)) return report(out, 'spec/type', path, `expected a shape object, got ${describe(v)}`);
    let ok = true;
    for (const [key, value] of Object.entries(v)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*\??$/.test(key)) {
        ok = report(
          out,
          'spec/invalid-name',
          at(path, key),
          `shape key ${JSON.stringify(key)} is not a plain name`,
        );
      }
      ok = shapeType(depth)(value, at(path, key), out) && ok;
    }
    return ok;
  };
}

/** A stored enum value: non-empty text (any characters) or a finite number. */
const enumValue: Check = (v, path, out) =>
  typeof v === 'number' ? num(v, path, out) : nonEmpty(v, path, out);
const enumValueObject = obj({ value: req(enumValue), label: opt(str), color: opt(nonEmpty) });
/** One entry of `values`: text, a number, or `{ value, label?, color? }`. */
const enumValueEntry: Check = (v, path, out) =>
  typeof v === 'string' || typeof v === 'number' ? enumValue(v, path, out) : enumValueObject(v, path, out);

const fieldSpec = obj({
  type: req(oneOf(FIELD_TYPE_NAMES)),
  label: opt(str),
  help: opt(str),
  required: opt(bool),
  default: opt(scalarDefault),
  unique: opt(either('true, false or "ignoreCase"', bool, literal('ignoreCase'))),
  ref: opt(str),
  onDelete: opt(oneOf(['cascade', 'restrict', 'set null'])),
  owner: opt(bool),
  values: opt(arrayOf(enumValueEntry)),
  currencyField: opt(str),
  currency: opt(nonEmpty),
  computed: opt(nonEmpty),
  read: opt(nonEmpty),
  accept: opt(strings),
  list: opt(bool),
  audited: opt(bool),
  search: opt(bool),
  renamedFrom: opt(str),
});

const transitionSpec = obj({
  label: opt(str),
  from: req(strings),
  to: req(str),
  roles: req(strings),
  guard: opt(str),
  guardError: opt(str),
  guards: opt(arrayOf(obj({ rule: req(str), error: req(str) }))),
  input: opt(strings),
  optionalInput: opt(strings),
  set: opt(recordOf(str)),
  confirm: opt(bool),
  calls: opt(strings),
  after: opt(str),
});

const createWithBecomes = obj({ when: req(permission), becomes: req(str), error: opt(str) });
/** A create: a permission, or `{ when, becomes, error? }` (checked key by key, for precise paths). */
const createPermission: Check = (v, path, out) =>
  isRecord(v) ? createWithBecomes(v, path, out) : permission(v, path, out);

const permissions = obj({
  read: opt(permission),
  create: opt(createPermission),
  update: opt(
    either(
      'false or { when, fields }',
      literal(false),
      obj({ when: req(permission), fields: req(strings), becomes: opt(str), error: opt(str) }),
    ),
  ),
  delete: opt(permission),
});

/** The full shape of an `AppSpec`. */
export const appSpecShape: Check = obj({
  purpose: req(obj({ name: req(nonEmpty), summary: req(str), users: req(strings) })),
  screens: req(
    recordOf(
      obj({
        route: req(screenRoute),
        kind: req(oneOf(SCREEN_KINDS)),
        title: req(str),
        shows: opt(str),
        entity: opt(str),
        nav: opt(strings),
        columns: opt(strings),
        filters: opt(strings),
        sort: opt(str),
        where: opt(str),
        related: opt(strings),
        fields: opt(strings),
        component: opt(str),
        widgets: opt(arrayOf(obj({ kind: req(oneOf(WIDGET_KINDS)), roles: opt(strings) }))),
      }),
      'screen',
    ),
  ),
  entities: req(
    recordOf(
      obj({
        label: req(str),
        plural: opt(str),
        title: opt(str),
        profile: opt(bool),
        files: opt(bool),
        live: opt(bool),
        renamedFrom: opt(str),
        fields: req(recordOf(fieldSpec, 'field')),
        unique: opt(arrayOf(obj({ fields: req(strings), error: req(str), ignoreCase: opt(bool) }))),
      }),
      'entity',
    ),
  ),
  states: req(
    recordOf(
      obj({
        field: req(str),
        initial: req(str),
        initialWhen: opt(arrayOf(obj({ state: req(str), when: req(str) }))),
        states: req(
          recordOf(
            obj({ label: opt(str), final: opt(bool), description: opt(str), waitingOn: opt(str) }),
            'state',
          ),
        ),
        transitions: req(recordOf(transitionSpec, 'transition')),
        removedStates: opt(recordOf(str)),
      }),
    ),
  ),
  validation: req(
    recordOf(
      arrayOf(
        byKind('kind', {
          field: obj({
            kind: req(literal('field')),
            field: req(str),
            minLength: opt(numberOrName),
            maxLength: opt(numberOrName),
            min: opt(numberOrName),
            max: opt(numberOrName),
            pattern: opt(str),
            format: opt(oneOf(['email', 'url', 'phone', 'currency'])),
            error: req(str),
          }),
          row: obj({
            kind: req(literal('row')),
            rule: req(str),
            when: opt(str),
            field: opt(str),
            onChange: opt(bool),
            error: req(str),
          }),
        }),
      ),
    ),
  ),
  roles: req(
    obj({
      roles: req(
        recordOf(
          obj({
            label: req(str),
            description: opt(str),
            inherits: opt(strings),
            signup: opt(bool),
            through: opt(
              obj({
                entity: req(str),
                field: opt(str),
                user: opt(str),
                scope: opt(str),
                role: opt(str),
                values: opt(strings),
              }),
            ),
          }),
          'role',
        ),
      ),
      permissions: req(recordOf(recordOf(permissions))),
    }),
  ),
  calls: req(
    obj({
      declared: req(
        recordOf(
          obj({
            description: req(str),
            method: req(oneOf(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
            path: req(route),
            service: req(nonEmpty),
            payload: req(shape(0)),
            response: req(shape(0)),
            roles: req(strings),
            error: req(str),
            fill: opt(recordOf(payloadFill)),
          }),
          'call',
        ),
      ),
    }),
  ),
  errors: req(
    recordOf(
      obj({
        message: req(nonEmpty),
        severity: req(oneOf(['error', 'warning', 'info'])),
        field: opt(str),
        params: opt(recordOf(str)),
      }),
      'error',
    ),
  ),
  constants: req(
    recordOf(
      obj({
        type: opt(oneOf(['date', 'datetime', 'duration', 'timezone'])),
        value: req(either('a number, text, true/false or a list of text', num, str, bool, strings)),
        label: req(str),
        unit: opt(str),
      }),
      'constant',
    ),
  ),
  translations: opt(recordOf(recordOf(str))),
});
