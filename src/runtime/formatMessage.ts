import type { AppSpec } from '../spec/types.ts';
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
  spec: Pick<AppSpec, 'errors' | 'constants'>,
  code: string,
  params: Readonly<Record<string, unknown>> = {},
): string {
  const entry = spec.errors[code];
  if (entry) return fillTemplate(entry.message, { ...constantValues(spec), ...params });
  const key = `error_${code}` as UiTextKey;
  if (Object.hasOwn(UI_TEXT, key)) return fillTemplate(uiCatalogue()[key], params);
  return uiCatalogue().error_UNKNOWN;
}

/** The severity of a code: the catalogue's, or `error` for built-in codes. */
export function messageSeverity(spec: Pick<AppSpec, 'errors'>, code: string): 'error' | 'warning' | 'info' {
  return spec.errors[code]?.severity ?? 'error';
}

/** Constant name → value, the placeholders every message may use. */
export function constantValues(spec: Pick<AppSpec, 'constants'>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, c] of Object.entries(spec.constants)) out[name] = c.value;
  return out;
}
