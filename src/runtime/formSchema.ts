import type { AppModel } from '../model/appModel.ts';
import type { ConstraintNode } from '../model/constraint.ts';
import { type EnumValueNode, formatRegExp, humanize } from '../model/index.ts';
import { isBlank } from '../spec/blank.ts';
import { FIELD_TYPES, type WidgetKind } from '../spec/fieldTypes.ts';
import type { FieldRuleSpec, FieldSpec, FieldType } from '../spec/types.ts';
import { becomesRefusal } from './becomes.ts';
import { can, updatableFields } from './can.ts';
import { computedValues } from './computedValues.ts';
import { formatMessage } from './formatMessage.ts';
import { type FormRule, formRules } from './formRules.ts';
import { initialStateOf } from './initialState.ts';
import { type RuleUser, refusesRow, ruleVerdict } from './ruleVerdict.ts';
import { ui } from './uiText.ts';

export type { WidgetKind };

export interface FormField {
  name: string;
  label: string;
  help: string | undefined;
  type: FieldType;
  widget: WidgetKind;
  required: boolean;
  /** False when the user's roles may not set this field (shown read-only). */
  editable: boolean;
  /** For enum/tags/status: the allowed values. */
  values: readonly string[] | undefined;
  /** The same values with their labels and colours (the app model's). */
  options: readonly EnumValueNode[] | undefined;
  /** For ref fields: the referenced entity. For user fields: the profile entity. */
  ref: string | undefined;
  accept: readonly string[] | undefined;
  /** Resolved numeric limits from field rules (constants looked up). */
  limits: { minLength?: number; maxLength?: number; min?: number; max?: number };
  /** For money: the field holding the currency code. */
  currencyField: string | undefined;
  /** Computed by the server (`computed`): shown read-only, with a preview where computable. */
  computed: boolean;
}

export interface FormSchema {
  entity: string;
  mode: 'create' | 'edit';
  fields: FormField[];
  /** Values a new form starts with (defaults; `me`/`now`/`today` resolved). */
  initialValues(user: RuleUser | null, now?: Date): Record<string, unknown>;
  /**
   * Field name → message for every problem in `values` (a draft row). Row rules that cannot
   * be decided in the browser are left to the server. `_form` holds messages without a field.
   */
  /** `original`: the row as stored (edit forms), so a rule checked on change skips an unchanged field. */
  validate(
    values: Readonly<Record<string, unknown>>,
    user: RuleUser | null,
    original?: Readonly<Record<string, unknown>>,
  ): Record<string, string>;
  /** What the server will compute for the computed fields of `values` (src/runtime/computedValues.ts). */
  computedValues(values: Readonly<Record<string, unknown>>, user: RuleUser | null): Record<string, unknown>;
}

/** Fields a form never offers: the status (moved by transitions), owners and implicit columns. */
function formable(name: string, f: FieldSpec, statusField: string | undefined): boolean {
  return name !== statusField && f.owner !== true && f.type !== 'status';
}

/**
 * The form for creating or editing one entity: fields with widgets, what the user's roles may
 * edit, and validators compiled from the specification's validation section with catalogue
 * messages. The same rules the database checks; here they give feedback while typing.
 *
 * @example
 * const form = formSchema(model, 'ticket', 'create', ['customer']);
 * form.validate({ title: 'Hi' }, user) // { title: 'A title has 5 to 80 characters.' }
 */
export function formSchema(
  model: AppModel,
  entity: string,
  mode: 'create' | 'edit',
  roles: readonly string[],
  options: {
    fields?: readonly string[];
    row?: Readonly<Record<string, unknown>>;
    userId?: string;
    /** Transition input: every listed field is filled in, whatever the update permissions say. */
    allEditable?: boolean;
    /** Transition input: the transition cannot run without each field (the database says INPUT_REQUIRED). */
    allRequired?: boolean;
    /** Transition input the user may leave empty (`optionalInput`): not made required by `allRequired`. */
    optional?: readonly string[];
  } = {},
): FormSchema {
  const table = model.tables.get(entity);
  if (!table) throw new Error(`unknown entity "${entity}"`);
  const e = table.spec;
  const statusField = model.machines.get(entity)?.field;
  const user: RuleUser = { id: options.userId ?? '', roles };
  const names = (options.fields ?? Object.keys(e.fields)).filter((n) => {
    const f = e.fields[n];
    return f !== undefined && (options.allEditable === true || formable(n, f, statusField));
  });
  const updatable = mode === 'edit' ? updatableFields(model, user, entity, options.row) : undefined;
  const canCreate = mode === 'create' && can(model, user, entity, 'create').ok;
  const rules = formRules(model, entity);
  const inServerOrder = serverOrder(table.constraints, rules);
  const ceiling = (name: string): number | undefined => table.textCeilings.get(name);
  const fields: FormField[] = names.map((name) => {
    const f = e.fields[name]!;
    const valueOptions = table.byField.get(name)?.values;
    return {
      name,
      label: table.byField.get(name)?.label ?? f.label ?? humanize(name),
      help: f.help,
      type: f.type,
      widget: FIELD_TYPES[f.type].widget,
      required: f.required === true || (options.allRequired === true && !options.optional?.includes(name)),
      // A computed field is the server's to set, whatever the permissions say.
      editable:
        f.computed === undefined &&
        (options.allEditable === true || (mode === 'create' ? canCreate : (updatable?.has(name) ?? false))),
      values: valueOptions?.map((o) => o.value),
      options: valueOptions,
      ref: f.type === 'user' ? model.profile : f.ref,
      accept: f.accept,
      limits: {
        // The database's default ceiling (src/spec/valueLimits.ts) unless a field rule bounds it.
        ...(ceiling(name) !== undefined ? { maxLength: ceiling(name) } : {}),
        ...limitsOf(
          model,
          rules.map((r) => r.rule).filter((r): r is FieldRuleSpec => r.kind === 'field' && r.field === name),
        ),
      },
      currencyField: f.currencyField,
      computed: f.computed !== undefined,
    };
  });

  const draft: DraftCheck = { model, entity, mode, fields, statusField, rules: inServerOrder, ceiling };
  const validate: FormSchema['validate'] = (values, who, original) =>
    checkDraft(draft, values, who, original);

  return {
    entity,
    mode,
    fields,
    validate,
    computedValues: (values, who) => computedValues(model, entity, values, who),
    initialValues: (who, now = new Date()) => {
      const out: Record<string, unknown> = {};
      for (const field of fields) {
        const d = e.fields[field.name]?.default;
        if (d === undefined || d === null) continue;
        if (d === 'me') out[field.name] = who?.id ?? null;
        else if (d === 'now') out[field.name] = now.toISOString();
        else if (d === 'today') out[field.name] = now.toISOString().slice(0, 10);
        else out[field.name] = field.options && typeof d === 'number' ? String(d) : d;
      }
      return out;
    },
  };
}

/** What the check of a form's values needs: the form's fields and the entity's rules in server order. */
interface DraftCheck {
  model: AppModel;
  entity: string;
  mode: 'create' | 'edit';
  fields: readonly FormField[];
  statusField: string | undefined;
  rules: readonly FormRule[];
  ceiling(field: string): number | undefined;
}

/** Field name → message for every problem in a draft row (see `FormSchema.validate`). */
function checkDraft(
  { model, entity, mode, fields, statusField, rules, ceiling }: DraftCheck,
  values: Readonly<Record<string, unknown>>,
  who: RuleUser | null,
  original?: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  // The row as the database will check it: an input left empty is an empty value (null), not a
  // missing one; a create adds its defaults, the values the server computes, and the state it
  // will choose (initialWhen rules), left out when only it can say. Made once per check (every
  // rule reads the same row; the user is the same throughout).
  let stored: Record<string, unknown> | undefined;
  const storedRow = (user: RuleUser): Record<string, unknown> => {
    if (stored) return stored;
    const empty = Object.fromEntries(fields.map((f) => [f.name, null]));
    const draft: Record<string, unknown> =
      mode === 'create'
        ? { ...empty, ...insertDefaults(model.tables.get(entity)?.spec ?? { fields: {} }, user), ...values }
        : { ...values };
    Object.assign(draft, computedValues(model, entity, draft, user));
    if (statusField && draft[statusField] === undefined) {
      const state = initialStateOf(model, entity, { user, row: { ...draft } });
      if (state !== 'undecidable') draft[statusField] = state;
    }
    stored = draft;
    return draft;
  };
  for (const field of fields) {
    if (!field.editable) continue;
    const v = values[field.name];
    // Required text that is blank (white space only) is as missing as '': the database's CHECK
    // trims the same characters (src/spec/blank.ts).
    const blank = typeof v === 'string' && FIELD_TYPES[field.type].freeText !== undefined && isBlank(v);
    if (isEmpty(v) || (field.required && blank)) {
      if (field.required) errors[field.name] = ui('required');
      continue;
    }
    if (
      (field.widget === 'number' || field.widget === 'integer' || field.widget === 'money') &&
      !isNumeric(v)
    ) {
      errors[field.name] = ui('notANumber');
    } else if ((field.widget === 'date' || field.widget === 'datetime') && !isFiniteDate(v)) {
      // `infinity` is a date to Postgres and passes every date rule; the database refuses it too.
      errors[field.name] = ui('badFormat', { format: field.widget });
    } else if (
      ceiling(field.name) !== undefined &&
      typeof v === 'string' &&
      [...v].length > (field.limits.maxLength ?? Number.POSITIVE_INFINITY)
    ) {
      errors[field.name] = ui('tooLong', { max: field.limits.maxLength });
    }
  }
  for (const { rule, target } of rules) {
    if (rule.kind === 'field') {
      if (errors[rule.field] || !fields.some((f) => f.name === rule.field && f.editable)) continue;
      const v = values[rule.field];
      if (isEmpty(v)) continue;
      // The stored row under the draft: a bound's currency may be a field the form does not show.
      if (!fieldRuleHolds(model, rule, v))
        errors[rule.field] = formatMessage(model, rule.error, { ...original, ...values });
      continue;
    }
    if (!who) continue;
    // Checked on create and when the field changes (as the database's trigger): an overdue
    // ticket's past due date, left as it is, does not stop an edit of its subject.
    if (rule.onChange && rule.field && original && sameValue(values[rule.field], original[rule.field]))
      continue;
    const ctx = { user: who, row: storedRow(who) };
    if (rule.when && ruleVerdict(model, entity, rule.when, ctx) !== true) continue;
    // As the database's check: false or unknown refuses; what needs other rows is the server's.
    if (!refusesRow(model, entity, rule.rule, ctx)) continue;
    const key = fields.some((f) => f.name === target) ? (target as string) : '_form';
    errors[key] ??= formatMessage(model, rule.error, values);
  }
  if (who && (mode === 'create' || original)) {
    // The write's trigger refuses a row the permissions' `becomes` does not let through before
    // any rule is checked: its message is the one the server answers with.
    const code =
      mode === 'create'
        ? becomesRefusal(model, who, entity, null, storedRow(who))
        : becomesRefusal(model, who, entity, original ?? {}, {
            ...original,
            ...values,
            ...computedValues(model, entity, { ...original, ...values }, who),
          });
    if (code !== undefined) {
      const [owner, field] = (model.errors.get(code)?.field ?? '').split('.');
      const key = owner === entity && fields.some((f) => f.name === field) ? (field as string) : '_form';
      errors[key] = formatMessage(model, code, values);
    }
  }
  return errors;
}

/**
 * The rules in the order the database finds them broken, so that the message a field shows is the
 * one the server would answer with: the validation trigger's rules first (a BEFORE trigger runs
 * before any constraint), in the specification's order, then the CHECK constraints, which
 * PostgreSQL tests in the byte order of their names.
 */
function serverOrder(
  constraints: readonly ConstraintNode[],
  rules: readonly FormRule[],
): readonly FormRule[] {
  const byRule = new Map<number, ConstraintNode>();
  for (const c of constraints) if (c.kind === 'validation' && c.rule !== undefined) byRule.set(c.rule, c);
  const key = (i: number): [number, string, number] => {
    const c = byRule.get(i);
    return c?.enforcedBy === 'check' ? [1, c.name, i] : [0, '', i];
  };
  return rules
    .map((rule) => ({ rule, k: key(rule.index) }))
    .sort((a, b) => a.k[0] - b.k[0] || (a.k[1] < b.k[1] ? -1 : a.k[1] > b.k[1] ? 1 : 0) || a.k[2] - b.k[2])
    .map((x) => x.rule);
}

/** The same stored value: equal, or the same instant written two ways (a timestamp's text forms). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b || (isEmpty(a) && isEmpty(b))) return true;
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const [ta, tb] = [Date.parse(a), Date.parse(b)];
  return /^\d{4}-\d\d-\d\d/.test(a) && /^\d{4}-\d\d-\d\d/.test(b) && !Number.isNaN(ta) && ta === tb;
}

/**
 * What the database fills in on insert that a form does not show: defaults, the owner (the user),
 * the timestamps. Rules read the row as it will be stored, so a draft must look like it.
 */
function insertDefaults(
  e: { fields: Readonly<Record<string, FieldSpec>> },
  who: RuleUser,
): Record<string, unknown> {
  const now = new Date();
  const out: Record<string, unknown> = { createdAt: now.toISOString(), updatedAt: now.toISOString() };
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.owner) out[name] = who.id;
    else if (f.default === 'me') out[name] = who.id;
    else if (f.default === 'now') out[name] = now.toISOString();
    else if (f.default === 'today') out[name] = now.toISOString().slice(0, 10);
    else if (f.default !== undefined) out[name] = f.default;
  }
  return out;
}

function limitsOf(model: Pick<AppModel, 'constants'>, rules: readonly FieldRuleSpec[]): FormField['limits'] {
  const out: FormField['limits'] = {};
  for (const r of rules) {
    for (const key of ['minLength', 'maxLength', 'min', 'max'] as const) {
      const n = resolveNumber(model, r[key]);
      if (n !== undefined) out[key] = n;
    }
  }
  return out;
}

/** A rule bound: a number, or the name of a numeric constant. */
export function resolveNumber(
  model: Pick<AppModel, 'constants'>,
  v: number | string | undefined,
): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return undefined;
  const c = model.constants.get(v)?.value;
  if (typeof c === 'number') return c;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Does a non-empty value satisfy one field rule? */
export function fieldRuleHolds(
  model: Pick<AppModel, 'constants'>,
  rule: FieldRuleSpec,
  value: unknown,
): boolean {
  const text = typeof value === 'string' ? value : Array.isArray(value) ? '' : String(value);
  const length = Array.isArray(value) ? value.length : [...text].length;
  const minLength = resolveNumber(model, rule.minLength);
  const maxLength = resolveNumber(model, rule.maxLength);
  const min = resolveNumber(model, rule.min);
  const max = resolveNumber(model, rule.max);
  if (minLength !== undefined && length < minLength) return false;
  if (maxLength !== undefined && length > maxLength) return false;
  if (min !== undefined || max !== undefined) {
    const n = Number(value);
    if (!Number.isFinite(n)) return false;
    if (min !== undefined && n < min) return false;
    if (max !== undefined && n > max) return false;
  }
  if (rule.pattern !== undefined && !new RegExp(rule.pattern).test(text)) return false;
  if (rule.format !== undefined && !formatRegExp(rule.format).test(text)) return false;
  return true;
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

function isFiniteDate(v: unknown): boolean {
  return typeof v === 'string'
    ? Number.isFinite(Date.parse(v))
    : v instanceof Date && Number.isFinite(v.getTime());
}

function isNumeric(v: unknown): boolean {
  return typeof v === 'number'
    ? Number.isFinite(v)
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));
}
