import type { AppSpec } from '../spec/types.ts';
import { isCurrencyCode, moneyText } from './moneyText.ts';
import { fillTemplate, UI_TEXT, type UiTextKey, uiCatalogue } from './uiText.ts';

/**
 * The message a person sees for an error code: the catalogue's template with `{placeholders}`
 * filled from `params` (row values, limits) and then from the specification's constants; for a
 * built-in code without a catalogue entry, the UI-text fallback. Never a raw database message.
 *
 * @example
 * formatMessage(spec, 'TOO_MANY_ATTACHMENTS', {}) // 'A ticket can have at most 5 attachments.'
 * formatMessage(spec, 'CONFLICT')                 // 'This was changed by someone else. Reload and try again.'
 */
export function formatMessage(
  spec: Pick<AppSpec, 'errors' | 'constants'> & Partial<Pick<AppSpec, 'entities'>>,
  code: string,
  params: Readonly<Record<string, unknown>> = {},
): string {
  const entry = spec.errors[code];
  if (entry) {
    const entity = entry.field?.split('.')[0];
    return fillTemplate(entry.message, { ...constantValues(spec), ...moneyParams(spec, entity, params) });
  }
  const key = `error_${code}` as UiTextKey;
  if (Object.hasOwn(UI_TEXT, key)) return fillTemplate(uiCatalogue()[key], params);
  return uiCatalogue().error_UNKNOWN;
}

/** The severity of a code: the catalogue's, or `error` for built-in codes. */
export function messageSeverity(spec: Pick<AppSpec, 'errors'>, code: string): 'error' | 'warning' | 'info' {
  return spec.errors[code]?.severity ?? 'error';
}

/**
 * Constant name → value, the placeholders every message may use. A money constant (its unit a
 * currency code) reads as money in the person's locale: "at most €5,000.00", never "at most 5000".
 */
export function constantValues(spec: Pick<AppSpec, 'constants'>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, c] of Object.entries(spec.constants))
    out[name] = typeof c.value === 'number' && isCurrencyCode(c.unit) ? moneyText(c.value, c.unit) : c.value;
  return out;
}

/** Row values a message names: a money field of the message's entity reads in its row's currency. */
function moneyParams(
  spec: Partial<Pick<AppSpec, 'entities'>>,
  entity: string | undefined,
  params: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const fields = entity ? spec.entities?.[entity]?.fields : undefined;
  if (!fields) return params;
  const out: Record<string, unknown> = { ...params };
  for (const [name, v] of Object.entries(params)) {
    const f = fields[name];
    if (f?.type !== 'money' || (typeof v !== 'number' && typeof v !== 'string') || v === '') continue;
    const currency = f.currencyField ? params[f.currencyField] : undefined;
    out[name] = moneyText(v, typeof currency === 'string' && currency !== '' ? currency : undefined);
  }
  return out;
}
