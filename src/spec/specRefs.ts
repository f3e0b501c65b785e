import type { Diagnostic } from '../diagnostics.ts';
import { didYouMean } from './didYouMean.ts';
import { enumValueNames } from './enumValueNames.ts';
import { FIELD_TYPES } from './fieldTypes.ts';
import { checkRelationRoles } from './relationRoleRefs.ts';
import { at, report } from './specShape.ts';
import { parseTemporal, TEMPORAL_CONSTANT_FORMS } from './temporal.ts';
import { canonicalTimeZone } from './timeZone.ts';
import type { AppSpec, EntitySpec, FieldSpec, FieldType, ScreenSpec } from './types.ts';

/** Own-property lookup: names come from untrusted input, so `constructor` must not find a built-in. */
export function own<T>(rec: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}

const IMPLICIT = ['id', 'createdAt', 'updatedAt', 'version'];

/**
 * Checks that every name used in one section exists in the section that defines it.
 * Runs only on a specification whose shape is already valid.
 */
export function checkRefs(spec: AppSpec, out: Diagnostic[]): void {
  const c = refContext(spec, out);
  checkEntitiesRefs(c);
  checkScreensRefs(c);
  checkStatesRefs(c);
  checkValidationRefs(c);
  checkRolesRefs(c);
  checkCallsRefs(c);
  checkConstantsRefs(c);
  checkErrorsRefs(c);
  checkComputed(spec, out);
}

/**
 * Computed fields (`computed: '<rule>'`) are the server's to write: never a default, an owner, a
 * status or a file, never in an update permission's fields, a transition's input or `set`.
 * Money's `currency` is a code or a constant holding one, never beside `currencyField`.
 */
function checkComputed(spec: AppSpec, out: Diagnostic[]): void {
  const computed = new Set<string>();
  for (const [en, e] of Object.entries(spec.entities))
    for (const [fn, f] of Object.entries(e.fields)) {
      const p = at(at(at('entities', en), 'fields'), fn);
      if (f.currency !== undefined) checkCurrency(spec, f, p, out);
      if (f.computed === undefined) continue;
      computed.add(`${en}.${fn}`);
      const clash = f.default !== undefined ? 'default' : f.owner ? 'owner' : undefined;
      if (clash || ['status', 'file'].includes(f.type))
        report(
          out,
          'spec/invalid-value',
          at(p, 'computed'),
          `a computed field is the server's to set: it cannot be ${clash ? `given "${clash}"` : `of type "${f.type}"`}`,
          clash ? `remove "${clash}"` : 'compute a field of another type',
        );
    }
  const refuse = (path: string, en: string, fn: string, where: string) => {
    if (computed.has(`${en}.${fn}`))
      report(
        out,
        'spec/invalid-value',
        path,
        `"${fn}" is computed (entities.${en}.fields.${fn}.computed): ${where} cannot write it`,
        `remove "${fn}" here`,
      );
  };
  for (const [role, perms] of Object.entries(spec.roles.permissions))
    for (const [en, p] of Object.entries(perms))
      if (p.update)
        p.update.fields.forEach((fn, i) => {
          refuse(
            at(at(at(at(at('roles.permissions', role), en), 'update'), 'fields'), i),
            en,
            fn,
            'an update',
          );
        });
  for (const [en, st] of Object.entries(spec.states))
    for (const [tn, t] of Object.entries(st.transitions)) {
      const tp = at(at(at('states', en), 'transitions'), tn);
      (t.input ?? []).forEach((fn, i) => {
        refuse(at(at(tp, 'input'), i), en, fn, 'a transition');
      });
      for (const fn of Object.keys(t.set ?? {})) refuse(at(at(tp, 'set'), fn), en, fn, 'a transition');
    }
}

function checkCurrency(spec: AppSpec, f: FieldSpec, p: string, out: Diagnostic[]): void {
  const c = f.currency ?? '';
  const constant = own(spec.constants, c);
  const code = constant ? constant.value : c;
  if (f.currencyField !== undefined)
    report(
      out,
      'spec/invalid-value',
      at(p, 'currency'),
      'give money a currency or a currency field, not both',
    );
  else if (typeof code !== 'string' || !/^[A-Z]{3}$/.test(code))
    report(
      out,
      'spec/invalid-value',
      at(p, 'currency'),
      constant
        ? `constant "${c}" does not hold a currency code`
        : `"${c}" is neither a three-letter currency code nor a constant`,
      'write an ISO 4217 code such as "EUR", or the name of a constant whose value is one',
    );
}

/** What every section's check reads: the spec, the sink, the defined names and the two lookups. */
interface RefContext {
  spec: AppSpec;
  out: Diagnostic[];
  entities: string[];
  roles: string[];
  errors: string[];
  calls: string[];
  name: NameCheck;
  fieldOf: (entity: string, field: string, path: string, implicit?: boolean) => FieldSpec | undefined;
}

function refContext(spec: AppSpec, out: Diagnostic[]): RefContext {
  const entities = Object.keys(spec.entities);
  const roles = Object.keys(spec.roles.roles);
  const errors = Object.keys(spec.errors);
  const calls = Object.keys(spec.calls.declared);

  const name = (kind: string, value: string, candidates: readonly string[], path: string): boolean =>
    candidates.includes(value) ||
    report(
      out,
      'spec/unknown-name',
      path,
      `unknown ${kind} ${JSON.stringify(value)}`,
      didYouMean(value, candidates) ?? listHint(kind, candidates),
    );

  const fieldOf = (entity: string, field: string, path: string, implicit = false): FieldSpec | undefined => {
    const e = own(spec.entities, entity);
    if (!e) return undefined;
    const f = own(e.fields, field);
    if (f || (implicit && IMPLICIT.includes(field))) return f;
    const candidates = implicit ? [...Object.keys(e.fields), ...IMPLICIT] : Object.keys(e.fields);
    report(
      out,
      'spec/unknown-name',
      path,
      `entity "${entity}" has no field ${JSON.stringify(field)}`,
      didYouMean(field, candidates) ?? listHint('field', candidates),
    );
    return undefined;
  };
  return { spec, out, entities, roles, errors, calls, name, fieldOf };
}

function checkEntitiesRefs(c: RefContext): void {
  const { spec, out, entities, errors, name, fieldOf } = c;
  const profiles = entities.filter((e) => spec.entities[e]?.profile === true);
  let usesUser = false;
  for (const [en, entity] of Object.entries(spec.entities)) {
    const base = at('entities', en);
    if (entity.title !== undefined) fieldOf(en, entity.title, at(base, 'title'), true);
    for (const [fn, f] of Object.entries(entity.fields)) {
      const p = at(at(base, 'fields'), fn);
      checkField(spec, entity, f, p, out, name);
      if (f.type === 'user') usesUser = true;
    }
    (entity.unique ?? []).forEach((key, i) => {
      const p = at(at(base, 'unique'), i);
      key.fields.forEach((f, j) => {
        fieldOf(en, f, at(at(p, 'fields'), j));
      });
      if (key.fields.length === 0 || new Set(key.fields).size !== key.fields.length)
        report(out, 'spec/invalid-value', at(p, 'fields'), 'a unique key names one or more different fields');
      name('error code', key.error, errors, at(p, 'error'));
      const text = key.fields.some((f) => isFreeText(own(entity.fields, f)));
      if (key.ignoreCase && !text)
        report(
          out,
          'spec/invalid-value',
          at(p, 'ignoreCase'),
          '"ignoreCase" needs a text field in the key: only text has a case',
          'remove "ignoreCase", or add a text, long text or email field to the key',
        );
    });
  }
  if (profiles.length > 1) {
    for (const p of profiles.slice(1)) {
      report(
        out,
        'spec/invalid-value',
        at(at('entities', p), 'profile'),
        `only one entity may be the profile entity; "${profiles[0]}" already is`,
      );
    }
  }
  if (usesUser && profiles.length === 0) {
    report(
      out,
      'spec/missing',
      'entities',
      'fields of type "user" need a profile entity (the users)',
      'mark one entity with profile: true',
    );
  }
}

function checkScreensRefs(c: RefContext): void {
  const { spec, out, entities, roles, name, fieldOf } = c;
  for (const [sn, screen] of Object.entries(spec.screens)) {
    const base = at('screens', sn);
    const needsEntity = ['list', 'detail', 'form', 'board'].includes(screen.kind);
    if (screen.entity === undefined) {
      if (needsEntity)
        report(out, 'spec/missing', at(base, 'entity'), `a ${screen.kind} screen needs an entity`);
    } else if (name('entity', screen.entity, entities, at(base, 'entity'))) {
      const en = screen.entity;
      for (const key of ['columns', 'filters', 'fields'] as const) {
        screen[key]?.forEach((f, i) => {
          fieldOf(en, f, at(at(base, key), i), key !== 'fields');
        });
      }
      if (screen.sort !== undefined) {
        // Same forms as the document's reading of `sort`: -field, +field, field desc, field.desc, field:asc.
        const field = screen.sort
          .trim()
          .replace(/^[-+]\s*/, '')
          .replace(/(?:\s+|[.:])(?:asc|desc)$/i, '');
        fieldOf(en, field, at(base, 'sort'), true);
      }
      screen.related?.forEach((r, i) => {
        const p = at(at(base, 'related'), i);
        const [re, rf, ...rest] = r.split('.');
        if (re === undefined || rf === undefined || rest.length > 0) {
          report(
            out,
            'spec/invalid-value',
            p,
            `related list ${JSON.stringify(r)} must be "entity.field"`,
            'e.g. "comment.ticket"',
          );
          return;
        }
        if (!name('entity', re, entities, p)) return;
        const f = fieldOf(re, rf, p);
        if (f && !(f.type === 'ref' && f.ref === en) && !(f.type === 'user' && spec.entities[en]?.profile)) {
          report(
            out,
            'spec/invalid-value',
            p,
            `"${r}" does not reference "${en}"`,
            `pick a field of "${re}" of type ref with ref: "${en}"`,
          );
        }
      });
    }
    screen.nav?.forEach((r, i) => {
      name('role', r, roles, at(at(base, 'nav'), i));
    });
    if (screen.widgets !== undefined) checkWidgets(c, screen, base);
    if (screen.kind === 'custom' && screen.component === undefined) {
      report(out, 'spec/missing', at(base, 'component'), 'a custom screen needs the name of its component');
    }
  }
}

/**
 * A dashboard's widgets: on a dashboard only, at least one, each kind once, roles that exist, and
 * what a widget counts there to count (an entity, with states for the counts by status).
 */
function checkWidgets(c: RefContext, screen: ScreenSpec, base: string): void {
  const { spec, out, roles, name } = c;
  const widgets = screen.widgets ?? [];
  const path = at(base, 'widgets');
  if (screen.kind !== 'dashboard')
    report(
      out,
      'spec/invalid-value',
      path,
      `a ${screen.kind} screen has no widgets`,
      'remove "widgets", or make the screen a dashboard',
    );
  if (widgets.length === 0)
    report(
      out,
      'spec/invalid-value',
      path,
      'a dashboard with no widgets shows nothing',
      'remove "widgets" to show every widget, or name some',
    );
  widgets.forEach((w, i) => {
    const p = at(path, i);
    if (widgets.findIndex((o) => o.kind === w.kind) < i)
      report(
        out,
        'spec/invalid-value',
        at(p, 'kind'),
        `the widget "${w.kind}" is listed twice`,
        'list each widget once, with every role that sees it',
      );
    if (w.roles?.length === 0)
      report(
        out,
        'spec/invalid-value',
        at(p, 'roles'),
        'a widget for no role is seen by nobody',
        'remove "roles" to show it to everyone, or name the roles',
      );
    w.roles?.forEach((r, j) => {
      name('role', r, roles, at(at(p, 'roles'), j));
    });
    if (w.kind === 'targets') return;
    if (screen.entity === undefined)
      report(
        out,
        'spec/missing',
        at(base, 'entity'),
        `the widget "${w.kind}" shows rows: the dashboard needs an entity`,
      );
    else if (w.kind === 'byStatus' && spec.entities[screen.entity] && !spec.states[screen.entity])
      report(
        out,
        'spec/invalid-value',
        at(p, 'kind'),
        `"${screen.entity}" has no states to count rows by`,
        'give the entity states in section 4, or show another widget',
      );
  });
}

function checkStatesRefs(c: RefContext): void {
  const { spec, out, entities, roles, errors, calls, name, fieldOf } = c;
  for (const [en, st] of Object.entries(spec.states)) {
    const base = at('states', en);
    if (!name('entity', en, entities, base)) continue;
    const f = fieldOf(en, st.field, at(base, 'field'));
    if (f && f.type !== 'status') {
      report(
        out,
        'spec/invalid-value',
        at(base, 'field'),
        `field "${st.field}" has type "${f.type}"; the states field must have type "status"`,
      );
    }
    const states = Object.keys(st.states);
    name('state', st.initial, states, at(base, 'initial'));
    (st.initialWhen ?? []).forEach((r, i) => {
      name('state', r.state, states, at(at(at(base, 'initialWhen'), i), 'state'));
    });
    for (const [gone, to] of Object.entries(st.removedStates ?? {})) {
      const gp = at(at(base, 'removedStates'), gone);
      if (states.includes(gone))
        report(out, 'spec/invalid-value', gp, `"${gone}" is still a state`, 'remove it from removedStates');
      name('state', to, states, gp);
    }
    for (const [tn, t] of Object.entries(st.transitions)) {
      const tp = at(at(base, 'transitions'), tn);
      t.from.forEach((s, i) => {
        name('state', s, states, at(at(tp, 'from'), i));
      });
      name('state', t.to, states, at(tp, 'to'));
      if (t.roles.length === 0 && t.after === undefined)
        report(
          out,
          'spec/invalid-value',
          at(tp, 'roles'),
          'no role may run this transition',
          'list at least one role, or say when it happens by itself with "after"',
        );
      if (t.after !== undefined && (t.input ?? []).length > 0)
        report(
          out,
          'spec/invalid-value',
          at(tp, 'input'),
          'a transition that happens by itself ("after") cannot ask for input',
          'remove "input", or fill the fields with "set"',
        );
      t.roles.forEach((r, i) => {
        name('role', r, roles, at(at(tp, 'roles'), i));
      });
      if (t.guardError !== undefined) name('error code', t.guardError, errors, at(tp, 'guardError'));
      (t.guards ?? []).forEach((g, i) => {
        name('error code', g.error, errors, at(at(at(tp, 'guards'), i), 'error'));
      });
      t.input?.forEach((x, i) => {
        fieldOf(en, x, at(at(tp, 'input'), i));
      });
      t.optionalInput?.forEach((x, i) => {
        if (fieldOf(en, x, at(at(tp, 'optionalInput'), i)) && t.input?.includes(x))
          report(
            out,
            'spec/invalid-value',
            at(at(tp, 'optionalInput'), i),
            `"${x}" is both required (input) and optional (optionalInput)`,
            'list it in one of the two',
          );
      });
      for (const key of Object.keys(t.set ?? {})) fieldOf(en, key, at(at(tp, 'set'), key));
      t.calls?.forEach((c, i) => {
        name('call', c, calls, at(at(tp, 'calls'), i));
      });
    }
  }
  for (const [en, entity] of Object.entries(spec.entities)) {
    for (const [fn, f] of Object.entries(entity.fields)) {
      if (f.type === 'status' && own(spec.states, en)?.field !== fn) {
        report(
          out,
          'spec/missing',
          at('states', en),
          `field "${en}.${fn}" has type "status" but no states section describes it`,
          `add states.${en} with field: "${fn}"`,
        );
      }
    }
  }
}

function checkValidationRefs(c: RefContext): void {
  const { spec, out, entities, errors, name, fieldOf } = c;
  for (const [en, rules] of Object.entries(spec.validation)) {
    const base = at('validation', en);
    if (!name('entity', en, entities, base)) continue;
    rules.forEach((rule, i) => {
      const p = at(base, i);
      name('error code', rule.error, errors, at(p, 'error'));
      if (rule.kind === 'row') {
        if (rule.field !== undefined) fieldOf(en, rule.field, at(p, 'field'));
        else if (rule.onChange)
          report(
            out,
            'spec/missing',
            at(p, 'onChange'),
            'onChange checks the rule when its field changes, and the rule names no field',
            'add field: the field whose writes the rule checks',
          );
        return;
      }
      const f = fieldOf(en, rule.field, at(p, 'field'));
      const used = (['minLength', 'maxLength', 'min', 'max', 'pattern', 'format'] as const).filter(
        (k) => rule[k] !== undefined,
      );
      if (used.length === 0) {
        report(
          out,
          'spec/missing',
          p,
          'a field rule needs one constraint',
          'add minLength, maxLength, min, max, pattern or format',
        );
      }
      for (const k of ['minLength', 'maxLength', 'min', 'max'] as const) {
        const v = rule[k];
        if (typeof v === 'string') {
          const c = own(spec.constants, v);
          if (!c) name('constant', v, Object.keys(spec.constants), at(p, k));
          else if (typeof c.value !== 'number') {
            report(out, 'spec/invalid-value', at(p, k), `constant "${v}" is not a number`);
          }
        }
      }
      if (rule.pattern !== undefined) {
        try {
          new RegExp(rule.pattern, 'u');
        } catch {
          report(
            out,
            'spec/invalid-value',
            at(p, 'pattern'),
            `pattern ${JSON.stringify(rule.pattern)} is not a valid regular expression`,
          );
        }
      }
      if (f) {
        const entry = FIELD_TYPES[f.type];
        if (
          (rule.minLength !== undefined ||
            rule.maxLength !== undefined ||
            rule.pattern !== undefined ||
            rule.format !== undefined) &&
          entry?.freeText === undefined
        ) {
          report(
            out,
            'spec/invalid-value',
            p,
            `length, pattern and format rules apply to text fields; "${rule.field}" has type "${f.type}"`,
          );
        }
        if ((rule.min !== undefined || rule.max !== undefined) && entry?.rule !== 'number') {
          report(
            out,
            'spec/invalid-value',
            p,
            `min and max apply to number fields; "${rule.field}" has type "${f.type}"`,
          );
        }
      }
    });
  }
}

function checkRolesRefs(c: RefContext): void {
  const { spec, out, entities, roles, name, fieldOf } = c;
  for (const [rn, role] of Object.entries(spec.roles.roles)) {
    role.inherits?.forEach((r, i) => {
      name('role', r, roles, at(at(at('roles.roles', rn), 'inherits'), i));
    });
  }
  checkRelationRoles(spec, out);
  const cycle = inheritanceCycle(spec);
  if (cycle)
    report(
      out,
      'spec/invalid-value',
      at('roles.roles', cycle[0]!),
      `roles inherit in a circle: ${cycle.join(' → ')}`,
    );
  for (const [rn, perms] of Object.entries(spec.roles.permissions)) {
    const base = at('roles.permissions', rn);
    if (!name('role', rn, roles, base)) continue;
    for (const [en, p] of Object.entries(perms)) {
      if (!name('entity', en, entities, at(base, en))) continue;
      if (p.update) {
        p.update.fields.forEach((f, i) => {
          fieldOf(en, f, at(at(at(at(base, en), 'update'), 'fields'), i));
        });
        // An update never granted has no row to become anything: the rule would be dead text.
        if (p.update.becomes !== undefined && p.update.when === false)
          report(
            out,
            'spec/invalid-value',
            at(at(at(base, en), 'update'), 'becomes'),
            '"becomes" on an update whose "when" is false: the update is never granted',
            'give the update a `when`, or remove `becomes`',
          );
      }
      if (typeof p.create === 'object' && p.create.when === false)
        report(
          out,
          'spec/invalid-value',
          at(at(at(base, en), 'create'), 'becomes'),
          '"becomes" on a create whose "when" is false: the create is never granted',
          'give the create a `when`, or remove `becomes`',
        );
      if (p.update) {
        // An error names what a failing `becomes` raises: alone it would never be raised.
        if (p.update.error !== undefined && p.update.becomes === undefined)
          report(
            out,
            'spec/invalid-value',
            at(at(at(base, en), 'update'), 'error'),
            '"error" is raised when "becomes" does not hold, and there is no "becomes"',
            'add `becomes` (a rule over the row as it will be), or remove `error`',
          );
      }
    }
  }
}

function checkCallsRefs(c: RefContext): void {
  const { spec, roles, errors, name } = c;
  for (const [cn, call] of Object.entries(spec.calls.declared)) {
    const base = at('calls.declared', cn);
    call.roles.forEach((r, i) => {
      name('role', r, roles, at(at(base, 'roles'), i));
    });
    name('error code', call.error, errors, at(base, 'error'));
  }
}

function checkConstantsRefs(c: RefContext): void {
  const { spec, out } = c;
  // constants: a date, datetime, duration or time zone constant must be written in its form.
  let zone: string | undefined;
  for (const [cn, c] of Object.entries(spec.constants)) {
    if (c.type === undefined) continue;
    if (typeof c.value !== 'string' || parseTemporal(c.type, c.value) === null) {
      const spelled =
        c.type === 'timezone' && typeof c.value === 'string' ? canonicalTimeZone(c.value) : undefined;
      report(
        out,
        'spec/invalid-value',
        at(at('constants', cn), 'value'),
        `constant "${cn}" is a ${c.type}, but ${JSON.stringify(c.value)} is not ${TEMPORAL_CONSTANT_FORMS[c.type]}`,
        spelled ? `write "${spelled}"` : `write ${TEMPORAL_CONSTANT_FORMS[c.type]}`,
      );
    }
    if (c.type !== 'timezone') continue;
    if (zone !== undefined) {
      report(
        out,
        'spec/invalid-value',
        at(at('constants', cn), 'type'),
        `constant "${cn}" is a second time zone; the app has one (constant "${zone}")`,
        'keep one timezone constant: the time functions read wall-clock time in it',
      );
    }
    zone ??= cn;
  }
}

function checkErrorsRefs(c: RefContext): void {
  const { spec, out, entities, name, fieldOf } = c;
  // Two codes that differ only in case or separators (`claim.locked`, `CLAIM_LOCKED`) would be
  // confused by readers and share a constraint name stem: each code must be unique in that sense.
  const seenCodes = new Map<string, string>();
  for (const code of Object.keys(spec.errors)) {
    const key = code.toLowerCase().replace(/[^a-z0-9]/g, '');
    const other = seenCodes.get(key);
    if (other === undefined) seenCodes.set(key, code);
    else
      report(
        out,
        'spec/invalid-name',
        at('errors', code),
        `error code ${JSON.stringify(code)} differs from ${JSON.stringify(other)} only in case or separators`,
        'keep one of them, or give them clearly different names',
      );
  }
  for (const [code, e] of Object.entries(spec.errors)) {
    if (e.field === undefined) continue;
    const p = at(at('errors', code), 'field');
    const [en, fn, ...rest] = e.field.split('.');
    if (en === undefined || fn === undefined || rest.length > 0) {
      report(
        out,
        'spec/invalid-value',
        p,
        `${JSON.stringify(e.field)} must be "entity.field"`,
        'e.g. "ticket.title"',
      );
    } else if (name('entity', en, entities, p)) fieldOf(en, fn, p);
  }
}

/** Text a person types (text, long text, email): what has a case and can be blank. */
function isFreeText(f: FieldSpec | undefined): boolean {
  return f !== undefined && FIELD_TYPES[f.type]?.freeText !== undefined;
}

type NameCheck = (kind: string, value: string, candidates: readonly string[], path: string) => boolean;

function checkField(
  spec: AppSpec,
  entity: EntitySpec,
  f: FieldSpec,
  p: string,
  out: Diagnostic[],
  name: NameCheck,
): void {
  const only = (key: keyof FieldSpec, types: readonly FieldType[]) => {
    if (f[key] !== undefined && !types.includes(f.type)) {
      report(
        out,
        'spec/invalid-value',
        at(p, key),
        `"${key}" applies only to fields of type ${types.map((t) => `"${t}"`).join(' or ')}`,
      );
    }
  };
  only('ref', ['ref']);
  only('onDelete', ['ref', 'user']);
  only('owner', ['user']);
  only('values', ['enum', 'tags']);
  only('currencyField', ['money']);
  only('currency', ['money']);
  only('accept', ['file']);
  if (f.unique === 'ignoreCase' && !isFreeText(f))
    report(
      out,
      'spec/invalid-value',
      at(p, 'unique'),
      `"unique: 'ignoreCase'" applies only to text, long text and email fields, not "${f.type}"`,
      'write "unique: true"',
    );
  if (f.type === 'ref') {
    if (f.ref === undefined)
      report(out, 'spec/missing', at(p, 'ref'), 'a ref field names the entity it references');
    else name('entity', f.ref, Object.keys(spec.entities), at(p, 'ref'));
  }
  if (f.type === 'enum') {
    if (!f.values || f.values.length === 0)
      report(out, 'spec/missing', at(p, 'values'), 'an enum field lists its values');
  }
  enumValueNames(f)?.forEach((v, i) => {
    // Any text is a value (rules quote it: `status = "in-review"`); only what cannot be told
    // apart on screen or in a query string is refused.
    if (v !== v.trim() || [...v].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127)) {
      report(
        out,
        'spec/invalid-value',
        at(at(p, 'values'), i),
        `value ${JSON.stringify(v)} starts or ends with a space or holds a control character`,
        'write the value without surrounding spaces or line breaks',
      );
    }
  });
  const names = enumValueNames(f);
  if (names && new Set(names).size !== names.length) {
    const twice = names.filter((n, i) => names.indexOf(n) !== i);
    report(
      out,
      'spec/invalid-value',
      at(p, 'values'),
      `values are listed twice: ${[...new Set(twice)].map((n) => JSON.stringify(n)).join(', ')}`,
      'a number and its text (45 and "45") are the same stored value',
    );
  }
  if (f.currencyField !== undefined) {
    const c = own(entity.fields, f.currencyField);
    if (!c) name('field', f.currencyField, Object.keys(entity.fields), at(p, 'currencyField'));
    else if (!['text', 'enum'].includes(c.type)) {
      report(
        out,
        'spec/invalid-value',
        at(p, 'currencyField'),
        `the currency field must be text or enum, "${f.currencyField}" is "${c.type}"`,
      );
    }
  }
  if (
    f.default !== undefined &&
    f.default !== null &&
    f.type === 'enum' &&
    (typeof f.default === 'string' || typeof f.default === 'number') &&
    !enumValueNames(f)?.includes(String(f.default))
  ) {
    report(
      out,
      'spec/invalid-value',
      at(p, 'default'),
      `default ${JSON.stringify(f.default)} is not one of the values`,
      didYouMean(String(f.default), enumValueNames(f) ?? []),
    );
  }
}

function listHint(kind: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return `no ${kind} is defined`;
  const shown = candidates
    .slice(0, 8)
    .map((c) => `"${c}"`)
    .join(', ');
  return `known: ${shown}${candidates.length > 8 ? ', …' : ''}`;
}

/** A circle in role inheritance, as the list of roles walked, or null. */
function inheritanceCycle(spec: AppSpec): string[] | null {
  const done = new Set<string>();
  const walk = (role: string, trail: string[]): string[] | null => {
    const i = trail.indexOf(role);
    if (i >= 0) return [...trail.slice(i), role];
    if (done.has(role)) return null;
    for (const parent of own(spec.roles.roles, role)?.inherits ?? []) {
      const c = walk(parent, [...trail, role]);
      if (c) return c;
    }
    done.add(role);
    return null;
  };
  for (const role of Object.keys(spec.roles.roles)) {
    const c = walk(role, []);
    if (c) return c;
  }
  return null;
}
