/**
 * Money's minor unit: how many decimals an amount in a currency keeps (ISO 4217). Two unless
 * listed here. Computed money and money set by a transition are rounded to it, half away from
 * zero, on both sides (SQL `round(x, n)` on numeric; `roundHalfAwayFromZero` in the browser).
 */
export const MINOR_UNIT_EXCEPTIONS: Readonly<Record<string, number>> = {
  BHD: 3,
  BIF: 0,
  CLF: 4,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  IQD: 3,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  PYG: 0,
  RWF: 0,
  TND: 3,
  UGX: 0,
  UYI: 0,
  UYW: 4,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

/** Decimals of an amount in `currency` (2 when none is known). */
export function minorUnits(currency: string | undefined | null): number {
  if (!currency) return 2;
  return MINOR_UNIT_EXCEPTIONS[currency.toUpperCase()] ?? 2;
}

/**
 * Rounds to `digits` decimals, half away from zero, on the number's decimal form (its shortest
 * text, as the rule evaluator reads numbers), as PostgreSQL's `round(numeric, int)` does:
 * `1.005` → `1.01` (binary floating point would give 1.00), `-2.5` → `-3` at 0 digits.
 *
 * @example
 * roundHalfAwayFromZero(1.005, 2); // 1.01
 */
export function roundHalfAwayFromZero(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const [mantissa = '0', exp = '0'] = Math.abs(value).toString().toLowerCase().split('e');
  const [whole = '0', frac = ''] = mantissa.split('.');
  // value = digitsText × 10^(shift)
  const digitsText = `${whole}${frac}`.replace(/^0+(?=\d)/, '');
  const shift = Number(exp) - frac.length;
  const scaled = BigInt(digitsText);
  const drop = -shift - digits;
  let kept: bigint;
  if (drop <= 0) kept = scaled * 10n ** BigInt(-drop);
  else {
    const unit = 10n ** BigInt(drop);
    kept = scaled / unit;
    if ((scaled % unit) * 2n >= unit) kept += 1n;
  }
  const text = kept.toString().padStart(digits + 1, '0');
  const out = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  const n = Number(out);
  return value < 0 && n !== 0 ? -n : n;
}

/** The SQL of `round(<sql>::numeric, <digits>)`; `digitsSql` is a number or an expression. */
export function roundSql(sql: string, digitsSql: string): string {
  return `round((${sql})::numeric, ${digitsSql})`;
}

/**
 * The SQL of a currency column's minor unit: `case upper(c) when 'JPY' then 0 … else 2 end`, from
 * the same table as `minorUnits`.
 */
export function minorUnitsSql(currencySql: string): string {
  const cases = Object.entries(MINOR_UNIT_EXCEPTIONS)
    .map(([code, n]) => `when '${code}' then ${n}`)
    .join(' ');
  return `(case upper(${currencySql}) ${cases} else 2 end)`;
}
