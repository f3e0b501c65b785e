import type { AppModel } from '../model/appModel.ts';
import { type DataContext, evaluateRule } from '../rules/evaluate.ts';
import { minorUnits, roundHalfAwayFromZero } from '../spec/currencies.ts';
import { needsData, type RuleUser } from './ruleVerdict.ts';

/**
 * The currency of a money field on a row: its currency field's value, else its fixed currency
 * (`currency`, a constant resolved), else none. Cells, exports and messages read it.
 *
 * @example
 * currencyOf(model, 'line', 'amount', { currency: 'EUR' }); // 'EUR'
 */
export function currencyOf(
  model: AppModel,
  entity: string,
  field: string,
  row: Readonly<Record<string, unknown>>,
): string | undefined {
  const t = model.tables.get(entity);
  const f = t?.spec.fields[field];
  if (f?.type !== 'money') return undefined;
  if (f.currencyField) {
    const v = row[f.currencyField];
    return typeof v === 'string' && v !== '' ? v : undefined;
  }
  return t?.byField.get(field)?.currency;
}

/**
 * A value as the database stores it in `field`: money rounded to its currency's minor unit and an
 * integer to a whole number, half away from zero (SQL `round(numeric, n)`); other values as given.
 */
export function storedNumber(
  model: AppModel,
  entity: string,
  field: string,
  value: unknown,
  row: Readonly<Record<string, unknown>>,
): unknown {
  const type = model.tables.get(entity)?.spec.fields[field]?.type;
  if (typeof value !== 'number') return value;
  if (type === 'money')
    return roundHalfAwayFromZero(value, minorUnits(currencyOf(model, entity, field, row)));
  if (type === 'integer') return roundHalfAwayFromZero(value, 0);
  return value;
}

/**
 * What the server will compute for each computed field of a draft row (`computed: '<rule>'`), in
 * field order, each seeing those before it: a preview for the form. A field whose rule reads rows
 * the browser was not given is left out (`data` gives them when the caller has them).
 *
 * @example
 * computedValues(model, 'timeEntry', { hours: 1.5, rate: 33.333 }, user); // { cost: 50 }
 */
export function computedValues(
  model: AppModel,
  entity: string,
  draft: Readonly<Record<string, unknown>>,
  user: RuleUser | null,
  opts: { now?: Date; data?: DataContext } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const row: Record<string, unknown> = { ...draft };
  for (const c of model.tables.get(entity)?.columns ?? []) {
    if (!c.computed) continue;
    // The model checked the rule as a value (src/model/resolve.ts).
    const typed = c.computed.typed;
    if (!typed || (!opts.data && needsData(typed))) continue;
    const v = evaluateRule(typed, {
      roleClosure: model.roleClosure,
      user,
      row: { ...row },
      now: opts.now ?? new Date(),
      ...(opts.data ? { data: opts.data } : {}),
    });
    const value = storedNumber(model, entity, c.field, toStored(v, c.type), row);
    out[c.field] = value;
    row[c.field] = value;
  }
  return out;
}

/** A rule value in a row's form: instants as ISO text (dates as their day), the rest as is. */
function toStored(v: unknown, type: string): unknown {
  if (typeof v !== 'number' || (type !== 'date' && type !== 'datetime')) return v;
  const iso = new Date(v).toISOString();
  return type === 'date' ? iso.slice(0, 10) : iso;
}

/**
 * A new row's values without its computed fields: the server sets those and refuses a client's
 * value (FIELD_NOT_WRITABLE). A child added under its parent inherits the parent's references
 * (`organisation` of a task added on a project's page), some of which the server computes.
 *
 * @example
 * withoutComputed(model, 'task', { project: 'p1', organisation: 'o1' }); // { project: 'p1' }
 */
export function withoutComputed(
  model: AppModel,
  entity: string,
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const computed = new Set(
    (model.tables.get(entity)?.columns ?? []).filter((c) => c.computed).map((c) => c.field),
  );
  return Object.fromEntries(Object.entries(values).filter(([k]) => !computed.has(k)));
}
