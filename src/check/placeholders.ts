/**
 * The `{placeholder}` names in a message template, in order.
 *
 * @example
 * placeholders('At most {maxTitleLength} characters in {title}'); // ['maxTitleLength', 'title']
 */
export function placeholders(message: string): string[] {
  return [...message.matchAll(/\{\s*([^{}\s]*)\s*\}/g)].map((m) => m[1]!);
}
