import type { AppModel } from '../model/appModel.ts';
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
    return fillTemplate(entry.message, { ...constantValues(model), ...moneyParams(model, entity, params) });
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
 */
export function constantValues(model: Pick<AppModel, 'constants'>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, c] of model.constants)
    out[name] = typeof c.value === 'number' && isCurrencyCode(c.unit) ? moneyText(c.value, c.unit) : c.value;
  return out;
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
