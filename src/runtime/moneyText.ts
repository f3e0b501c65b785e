import { intlFormat } from './intlFormat.ts';
import { currentLocale, INTL_TAGS } from './locale.ts';

/** A currency code as ISO 4217 writes it (`EUR`), the way a money constant's `unit` names one. */
export function isCurrencyCode(unit: unknown): unit is string {
  return typeof unit === 'string' && /^[A-Z]{3}$/.test(unit);
}

/**
 * An amount as a person reads it in their locale: with its currency when one is known
 * (`5.000,00 €` in German, `€5,000.00` in English), else with two decimals. Cells, exports and
 * messages all print money through here, so the three never disagree.
 *
 * @example
 * moneyText(5000, 'EUR'); // '€5,000.00' (en)
 * moneyText(12.5, '');    // '12.50'
 */
export function moneyText(amount: unknown, currency: string | undefined): string {
  const n = Number(amount);
  const tag = INTL_TAGS[currentLocale()];
  try {
    const format = currency
      ? intlFormat(
          `money:${tag}:${currency}`,
          () => new Intl.NumberFormat(tag, { style: 'currency', currency }),
        )
      : intlFormat(
          `money:${tag}`,
          () => new Intl.NumberFormat(tag, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
        );
    return format.format(n);
  } catch {
    // An unknown currency code (Intl refuses it): the amount and the code as written.
    return `${n.toFixed(2)} ${currency ?? ''}`.trim();
  }
}
