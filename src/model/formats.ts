/**
 * The one table of field formats (`validation: { kind: 'field', format }`). The SQL CHECK
 * (`src/sql/emitValidation.ts`) and the browser's form check (`src/runtime/formSchema.ts`) both
 * compile these patterns, so a value is accepted by both or by neither (test/agreement/formats).
 *
 * Patterns are written in the subset PostgreSQL's advanced regular expressions and JavaScript's
 * RegExp read the same way: no POSIX classes (`[[:space:]]` means something else in JavaScript),
 * whitespace spelled out as ASCII escapes (so both engines treat non-ASCII spaces alike).
 */
export type FieldFormat = 'email' | 'url' | 'phone' | 'currency';

export interface FieldFormatNode {
  format: FieldFormat;
  /** Regular expression source, valid in both engines. */
  pattern: string;
  /** Case-insensitive match (`~*` in SQL, the `i` flag in JavaScript). */
  ignoreCase: boolean;
  /** What the format accepts, in words (for the document and docs/decisions.md). */
  accepts: string;
}

const WS = ' \\t\\n\\r\\f\\v';

export const FIELD_FORMATS: Readonly<Record<FieldFormat, FieldFormatNode>> = {
  email: {
    format: 'email',
    pattern: `^[^${WS}@]+@[^${WS}@]+\\.[^${WS}@]+$`,
    ignoreCase: false,
    accepts: 'one @, a dot after it, no spaces',
  },
  url: {
    // `http://a` is accepted: a single-label host is a valid URL (intranet names); the host
    // must start with something that can start a host name.
    format: 'url',
    pattern: `^https?://[^${WS}/?#.][^${WS}]*$`,
    ignoreCase: true,
    accepts: 'http:// or https:// followed by a host, no spaces',
  },
  phone: {
    // `030/123456`: a slash separates the area code in several countries.
    format: 'phone',
    pattern: '^\\+?[0-9 ()./-]{6,20}$',
    ignoreCase: false,
    accepts: 'an optional +, then 6 to 20 digits, spaces, ( ) . / -',
  },
  currency: {
    // ISO 4217 codes are upper case; `usd` would be a different value to every comparison.
    format: 'currency',
    pattern: '^[A-Z]{3}$',
    ignoreCase: false,
    accepts: 'three capital letters (ISO 4217)',
  },
};

export const FIELD_FORMAT_NAMES = Object.keys(FIELD_FORMATS) as FieldFormat[];

const compiled = new Map<FieldFormat, RegExp>();

/**
 * The browser's matcher for a format.
 *
 * @example
 * formatRegExp('phone').test('030/123456'); // true
 */
export function formatRegExp(format: FieldFormat): RegExp {
  let r = compiled.get(format);
  if (!r) {
    const f = FIELD_FORMATS[format];
    r = new RegExp(f.pattern, f.ignoreCase ? 'i' : '');
    compiled.set(format, r);
  }
  return r;
}
