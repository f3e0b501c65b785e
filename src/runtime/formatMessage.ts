import type { AppModel } from '../model/appModel.ts';
import type { ErrorParamNode } from '../model/errorParams.ts';
import { dateText } from './dateText.ts';
import { intlFormat } from './intlFormat.ts';
import { currentLocale, INTL_TAGS } from './locale.ts';
import { isCurrencyCode, moneyText } from './moneyText.ts';
import { fillTemplate, UI_TEXT, type UiTextKey, uiCatalogue } from './uiText.ts';

/**
 * The message a person sees for an error code: the catalogue's template with `{placeholders}`
 * filled from `params` (row values, limits) and then from the specification's constants; for a
 * built-in code without a catalogue entry, the UI-text fallback. Never a raw database message.
 *
 * @example
 * formatMessage(model, 'TOO_MANY_ATTACHMENTS', {}) // 'A ticket can have at most 5 attachments.'
 * formatMessage(model, 'CONFLICT')                 // 'This was changed by someone else. Reload and try again.'
 */
export function formatMessage(
  model: Pick<AppModel, 'errors' | 'constants'> & Partial<Pick<AppModel, 'tables'>>,
  code: string,
  params: Readonly<Record<string, unknown>> = {},
): string {
  const entry = model.errors.get(code);
  if (entry?.message !== undefined) {
    const entity = entry.field?.split('.')[0];
    return fillTemplate(entry.message, {
      ...constantValues(model, amountCurrency(model, entry.field, params)),
      ...moneyParams(model, entity, params),
      ...declaredParams(model, entry.params ?? [], params),
    });
  }
  const key = `error_${code}` as UiTextKey;
  if (Object.hasOwn(UI_TEXT, key)) return fillTemplate(uiCatalogue()[key], params);
  return uiCatalogue().error_UNKNOWN;
}

/** The severity of a code: the catalogue's, or `error` for built-in codes. */
export function messageSeverity(model: Pick<AppModel, 'errors'>, code: string): 'error' | 'warning' | 'info' {
  return model.errors.get(code)?.severity ?? 'error';
}

/**
 * Constant name → value, the placeholders every message may use. A money constant (its unit a
 * currency code) reads as money in the person's locale: "at most €5,000.00", never "at most 5000".
 * A constant whose unit is `currency` is an amount in the currency of the money it bounds: it
 * reads in `currency` (the row's, when the message is about a money field) or as a plain amount.
 */
export function constantValues(
  model: Pick<AppModel, 'constants'>,
  currency?: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, c] of model.constants) {
    if (typeof c.value !== 'number') out[name] = c.value;
    else if (isCurrencyCode(c.unit)) out[name] = moneyText(c.value, c.unit);
    else if (c.unit === ROW_CURRENCY_UNIT) out[name] = moneyText(c.value, currency);
    else out[name] = c.value;
  }
  return out;
}

/** The unit of a constant that is an amount in the currency of whatever money it bounds. */
export const ROW_CURRENCY_UNIT = 'currency';

/**
 * The currency of the money field a message is about (`field: 'rate.hourlyRate'`): the row's
 * currency field as `params` hold it (a form's values, a server error's parameters), else the
 * field's fixed currency.
 */
function amountCurrency(
  model: Partial<Pick<AppModel, 'tables'>>,
  field: string | undefined,
  params: Readonly<Record<string, unknown>>,
): string | undefined {
  const [entity, name] = field?.split('.') ?? [];
  const f = entity && name ? model.tables?.get(entity)?.spec.fields[name] : undefined;
  if (f?.type !== 'money') return undefined;
  const code = f.currencyField
    ? params[f.currencyField]
    : model.tables?.get(entity ?? '')?.byField.get(name ?? '')?.currency;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/** Row values a message names: a money field of the message's entity reads in its row's currency. */
function moneyParams(
  model: Partial<Pick<AppModel, 'tables'>>,
  entity: string | undefined,
  params: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const fields = entity ? model.tables?.get(entity)?.spec.fields : undefined;
  if (!fields) return params;
  const out: Record<string, unknown> = { ...params };
  for (const [name, v] of Object.entries(params)) {
    const f = fields[name];
    if (f?.type !== 'money' || (typeof v !== 'number' && typeof v !== 'string') || v === '') continue;
    // The row's currency field, else the field's fixed currency (`currency`).
    const currency = f.currencyField
      ? params[f.currencyField]
      : model.tables?.get(entity ?? '')?.byField.get(name)?.currency;
    out[name] = moneyText(v, typeof currency === 'string' && currency !== '' ? currency : undefined);
  }
  return out;
}

/**
 * The code's declared parameters as the person reads them: a date, a time or money in their
 * locale (and a time in their time zone), a number with the locale's separators. A value comes
 * from the server's error under the parameter's name, or, for a field of the row, from the row a
 * form checks (`params` then holds the row's fields).
 */
function declaredParams(
  model: Partial<Pick<AppModel, 'tables'>>,
  declared: readonly ErrorParamNode[],
  params: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of declared) {
    const fromRow = p.source.kind === 'field' && Object.hasOwn(params, p.source.field);
    if (!Object.hasOwn(params, p.name) && !fromRow) continue;
    const v = Object.hasOwn(params, p.name) ? params[p.name] : params[(p.source as { field: string }).field];
    out[p.name] = paramText(model, p, v);
  }
  return out;
}

function paramText(model: Partial<Pick<AppModel, 'tables'>>, p: ErrorParamNode, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return v;
  const column = p.entity && p.field ? model.tables?.get(p.entity)?.byField.get(p.field) : undefined;
  const type = p.source.kind === 'count' ? 'integer' : column?.type;
  if (type === 'date') return dateText(v);
  if (type === 'datetime' || column?.timestamp) return dateText(v, { time: true });
  if (type === 'money') return moneyText(v, column?.currency);
  if ((type === 'number' || type === 'integer') && Number.isFinite(Number(v)))
    return intlFormat(
      `number6:${currentLocale()}`,
      () => new Intl.NumberFormat(INTL_TAGS[currentLocale()], { maximumFractionDigits: 6 }),
    ).format(Number(v));
  return v;
}
