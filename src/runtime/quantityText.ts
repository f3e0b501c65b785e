import { intlFormat } from './intlFormat.ts';
import { currentLocale, INTL_TAGS } from './locale.ts';
import { isCurrencyCode, moneyText } from './moneyText.ts';

/** Duration units of constants, as `Intl.NumberFormat` names them. */
const DURATIONS: Readonly<Record<string, string>> = { minutes: 'minute', hours: 'hour', days: 'day' };

/**
 * A constant's value with its unit as a person reads it in their locale: durations with the
 * unit's word in that language and number (`1 hour`, `80 hours`, `90 Tage`), money in its
 * currency, anything else as the number and the unit as written.
 *
 * @example
 * quantityText(80, 'hours'); // '80 hours' (en), '80 Stunden' (de)
 * quantityText(1, 'days');   // '1 day'
 */
export function quantityText(value: unknown, unit: string | undefined): string {
  const n = Number(value);
  if (typeof value === 'number' && isCurrencyCode(unit)) return moneyText(value, unit);
  // An amount in whichever currency it bounds (`unit: 'currency'`): the amount alone.
  if (typeof value === 'number' && unit === 'currency') return moneyText(value, undefined);
  const duration = unit ? DURATIONS[unit] : undefined;
  if (typeof value === 'number' && Number.isFinite(n) && duration)
    return intlFormat(
      `duration:${currentLocale()}:${duration}`,
      () =>
        new Intl.NumberFormat(INTL_TAGS[currentLocale()], {
          style: 'unit',
          unit: duration,
          unitDisplay: 'long',
        }),
    ).format(n);
  return `${String(value)}${unit ? ` ${unit}` : ''}`;
}
