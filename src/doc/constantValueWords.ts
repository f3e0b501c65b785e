import { parseDurationText } from '../rules/temporal.ts';
import type { ConstantValue, TemporalConstantType } from '../spec/types.ts';

/**
 * A constant's value as a person reads it: lists comma-separated, booleans as yes/no, dates as
 * written, datetimes with their zone spelled out, durations in days, hours and minutes.
 *
 * @example
 * constantValueWords(['a', 'b']); // 'a, b'
 * constantValueWords('PT2H30M', 'duration'); // '2 hours 30 minutes'
 */
export function constantValueWords(value: ConstantValue, type?: TemporalConstantType): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    if (type === 'datetime') return value.replace('T', ' ').replace(/Z$/, ' UTC');
    if (type === 'duration') return durationWords(parseDurationText(value)) ?? value;
    return value;
  }
  return value.join(', ');
}

function durationWords(ms: number | null): string | null {
  if (ms === null) return null;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, secs] of [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ] as const) {
    const n = Math.floor(rest / secs);
    rest -= n * secs;
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  return parts.length === 0 ? '0 seconds' : parts.join(' ');
}
