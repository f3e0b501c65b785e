/**
 * A name from the specification spelled out for people, the one way the document, the UI and
 * rule descriptions all label a name the specification gives no label for.
 * Codes stay codes: `EUR`, `VAT`, `P1` are not words to sentence-case.
 *
 * @example
 * humanize('solvedAt');            // 'Solved at'
 * humanize('waiting_on_customer'); // 'Waiting on customer'
 * humanize('receiptURL');          // 'Receipt url'
 * humanize('EUR');                 // 'EUR'
 */
export function humanize(name: string): string {
  if (/^[A-Z][A-Z0-9]*$/.test(name)) return name;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
