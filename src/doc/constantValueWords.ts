import type { ConstantValue } from '../spec/types.ts';

/**
 * A constant's value as a person reads it: lists comma-separated, booleans as yes/no.
 *
 * @example
 * constantValueWords(['a', 'b']); // 'a, b'
 */
export function constantValueWords(value: ConstantValue): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value;
  return value.join(', ');
}
