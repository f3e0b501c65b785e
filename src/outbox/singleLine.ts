/**
 * Which values of a declared call are single-line by nature (finding 28.6): mail headers and
 * names a service puts into one. Self-contained (no imports) like the rest of this folder, which
 * is copied into a project's `supabase/functions/` as it is; the compiler's payload filling
 * (src/spec/callFills.ts) and the deliverer (deliver.ts) share it.
 *
 * The rule: a payload key is single-line when its name, lower-cased without `_` and `-`, is one
 * of `to`, `from`, `cc`, `bcc`, `replyto`, `sender`, `returnpath`, `title`, or ends with
 * `subject`, `name` or `email` (`fullName`, `reply_to`, `customerEmail`). The compiler adds keys
 * whose shape type is `email` or `uuid`, and keys filled from one field of a single-line type
 * (every field type but `longtext`).
 */

const HEADER_KEYS = new Set(['to', 'from', 'cc', 'bcc', 'replyto', 'sender', 'returnpath', 'title']);
const HEADER_SUFFIXES = ['subject', 'name', 'email'];

/** Whether a payload key is single-line by its name (see the rule above). */
export function isSingleLineKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[_-]/g, '');
  return HEADER_KEYS.has(k) || HEADER_SUFFIXES.some((s) => k.endsWith(s));
}

/**
 * Control characters and line breaks: C0 (NUL to US), DEL, C1 (U+0080 to U+009F, NEL among
 * them), and the Unicode line and paragraph separators. Any of them in a header can end it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** The same class as a PostgreSQL regular expression (ARE escapes), for `regexp_replace`. */
export const CONTROL_CHARACTERS_SQL = '[\\x01-\\x1f\\x7f-\\x9f\\u2028\\u2029]';
