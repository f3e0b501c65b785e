/**
 * Wall-clock time in an IANA time zone, computed from the zone rules the JavaScript engine ships
 * (Intl), as Postgres computes `t at time zone 'Europe/Berlin'` from its own copy of the same
 * database. Used by the evaluator for `hour`, `weekday`, `startOfDay` and `date(t)`.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/**
 * The wall-clock reading of instant `ms` in `zone`, as the epoch milliseconds of the same reading
 * in UTC (so `getUTCHours()` of the result is the local hour).
 *
 * @example
 * new Date(wallClock(Date.UTC(2027, 2, 28, 1, 30), 'Europe/Berlin')).getUTCHours(); // 3 (CEST)
 */
export function wallClock(ms: number, zone: string): number {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const bc = parts.era === 'BC' || parts.era === 'B';
  const wall = new Date(0);
  wall.setUTCFullYear(
    bc ? 1 - Number(parts.year) : Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
  );
  wall.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  // Intl reads whole seconds; the milliseconds of the instant carry over unchanged.
  return wall.getTime() + (((ms % 1000) + 1000) % 1000);
}

/** The zone's offset from UTC at instant `ms`, in milliseconds (positive east of Greenwich). */
export function zoneOffset(ms: number, zone: string): number {
  return wallClock(ms, zone) - ms;
}

const DAY_MS = 86_400_000;

/**
 * The instant a wall-clock reading (given as UTC epoch milliseconds) names in `zone`. A reading
 * the zone skips (spring forward) or passes twice (fall back) is resolved as Postgres resolves
 * `timestamp at time zone`: the later of the two candidate instants (the smaller offset).
 *
 * @example
 * instantOfWall(Date.UTC(2027, 9, 31, 2, 30), 'Europe/Berlin'); // 2027-10-31T01:30:00Z (CET)
 */
export function instantOfWall(wall: number, zone: string): number {
  const before = zoneOffset(wall - DAY_MS, zone);
  const after = zoneOffset(wall + DAY_MS, zone);
  if (before === after) {
    // No change within a day either side; still confirm (a zone may change twice in two days).
    const guess = wall - before;
    const actual = zoneOffset(guess, zone);
    return actual === before ? guess : Math.max(guess, wall - actual);
  }
  const a = wall - before;
  const b = wall - after;
  const aValid = zoneOffset(a, zone) === before;
  const bValid = zoneOffset(b, zone) === after;
  if (aValid && !bValid) return a;
  if (bValid && !aValid) return b;
  return Math.max(a, b);
}

/** Names only (`Europe/Berlin`, `UTC`, `Etc/GMT+1`): never a bare offset, which Postgres reads with the opposite sign. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The spelling the engine gives a zone it knows (`europe/berlin` → `Europe/Berlin`), or undefined.
 * Links keep their own name (`Asia/Kolkata`, which some engines report as `Asia/Calcutta`).
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (typeof name !== 'string' || !ZONE_NAME.test(name)) return undefined;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
  } catch {
    return undefined;
  }
}

/** Whether `name` is a time zone both engines know, written as the engine spells it. */
export function isTimeZoneName(name: string): boolean {
  return canonicalTimeZone(name) === name;
}
