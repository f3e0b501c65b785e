/**
 * Agreement on wall-clock time in the app's time zone (`hour`, `weekday`, `startOfDay`, `date(t)`)
 * and on duration ÷ duration, across daylight-saving changes: every 20 minutes for a day and a half
 * either side of each change of 2027 in zones that move at 02:00 (Europe/Berlin), at midnight
 * (America/Santiago: local midnight does not exist on the spring day), by 30 minutes
 * (Australia/Lord_Howe) or not at all (Asia/Kathmandu, +05:45), plus random instants of 2000–2037.
 * Both engines, PGlite and the server (when one answers; CI requires it), under several session
 * time zones (the result must not depend on it).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/model/resolve.ts';
import { roleClosureOf } from '../../src/model/roleClosure.ts';
import { checkRule } from '../../src/rules/check.ts';
import { evaluateRule, type RuleValue } from '../../src/rules/evaluate.ts';
import { ruleSpec } from '../../src/rules/fixtures/ruleSpec.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { compileRuleSql } from '../../src/sql/compileRuleSql.ts';
import { createServerDb } from '../../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { serverWanted } from './agreementDb.ts';

const server = await serverWanted();

const ZONES = [
  'Europe/Berlin',
  'America/Santiago',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/New_York',
];
const SESSION_ZONES = ['UTC', 'Pacific/Kiritimati', 'America/St_Johns'];
/** Days of 2027 on which one of the zones above changes its clocks. */
const CHANGES = [
  '2027-03-14',
  '2027-03-28',
  '2027-04-04',
  '2027-09-05',
  '2027-10-03',
  '2027-10-31',
  '2027-11-07',
];

const RULES = [
  'hour(closedAt)',
  'weekday(closedAt)',
  'startOfDay(closedAt)',
  'date(closedAt)',
  'hour(dueDate)',
  'weekday(dueDate)',
  'startOfDay(dueDate)',
  'date(dueDate)',
  'startOfDay(dueDate + days(1))',
  'startOfDay(closedAt) + hours(12)',
  '(closedAt - startOfDay(closedAt)) / hours(1)',
  '(startOfDay(closedAt + days(1)) - startOfDay(closedAt)) / minutes(1)',
  '(closedAt - startOfDay(dueDate)) / days(1)',
  'date(closedAt) = dueDate',
  'hour(closedAt) >= 9 and hour(closedAt) < 17 and weekday(closedAt) <= 5',
  'closedAt >= startOfDay(dueDate + days(1))',
  'date(now) - dueDate',
  'weekday(now) in (6, 7)',
];

function specIn(zone: string): AppSpec {
  return {
    ...ruleSpec,
    constants: { ...ruleSpec.constants, appZone: { type: 'timezone', value: zone, label: 'Time zone' } },
  };
}

interface Case {
  closedAt: string | null;
  dueDate: string | null;
}

/** Every 20 minutes from 36 hours before to 36 hours after each change day's midnight UTC. */
function aroundChanges(): Case[] {
  const out: Case[] = [];
  for (const day of CHANGES) {
    const mid = Date.parse(`${day}T00:00:00Z`);
    for (let ms = mid - 36 * 3_600_000; ms <= mid + 36 * 3_600_000; ms += 20 * 60_000) {
      const d = new Date(ms).toISOString();
      out.push({ closedAt: d, dueDate: d.slice(0, 10) });
    }
  }
  out.push({ closedAt: null, dueDate: null });
  return out;
}

const randomCases = fc.sample(
  fc.record({
    closedAt: fc.option(
      fc
        .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2037, 11, 31) })
        .map((ms) => new Date(ms).toISOString()),
    ),
    dueDate: fc.option(
      fc
        .integer({ min: Date.UTC(2000, 0, 1) / 86_400_000, max: Date.UTC(2037, 11, 31) / 86_400_000 })
        .map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10)),
    ),
  }),
  { numRuns: 300, seed: 20_270_328 },
);

/** The SQL result as the evaluator's value: instants and durations as milliseconds, dates as text. */
function readableSql(sql: string, kind: string): string {
  if (kind === 'datetime') return `(extract(epoch from (${sql})) * 1000)::text`;
  if (kind === 'date') return `to_char((${sql}), 'YYYY-MM-DD')`;
  if (kind === 'boolean') return `(${sql})`;
  return `(${sql})::text`;
}

function tsValue(v: RuleValue, kind: string): RuleValue {
  if (v === null) return null;
  if (kind === 'date' && typeof v === 'number') return new Date(v).toISOString().slice(0, 10);
  return v;
}

function sqlValue(v: unknown, kind: string): RuleValue {
  if (v === null || v === undefined) return null;
  if (kind === 'boolean' || kind === 'date') return v as RuleValue;
  return Number(v);
}

describe.each([
  ['pglite', false],
  ['server', true],
] as const)('time zones agree on %s', (_name, onServer) => {
  let db: TestDb;
  beforeAll(async () => {
    if (onServer && !server) return;
    db = onServer ? await createServerDb() : await createPgliteDb();
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it.each(ZONES)(
    '%s: every rule, every instant, every session zone',
    async (zone) => {
      if (onServer && !server) return;
      const spec = specIn(zone);
      const model = resolve(spec);
      const cases = [...aroundChanges(), ...randomCases];
      const now = new Date(Date.UTC(2027, 2, 28, 1, 30));
      let compared = 0;
      const failures: string[] = [];
      for (const text of RULES) {
        const checked = checkRule(spec, text, { entity: 'ticket', expect: 'value' });
        if (!checked.ok) throw new Error(`${text}: ${checked.errors.map((e) => e.message).join('; ')}`);
        const kind = checked.typed.type.kind;
        const sql = compileRuleSql(checked.typed, { model, row: 'r' }).replaceAll(
          'now()',
          "'2027-03-28T01:30:00Z'::timestamptz",
        );
        for (const sessionZone of SESSION_ZONES) {
          await db.query(`set timezone = '${sessionZone}'`);
          const res = await db.query<{ v: unknown; i: number }>(
            `select ${readableSql(sql, kind)} as v, r.i from unnest($1::timestamptz[], $2::date[]) with ordinality as r(closed_at, due_date, i) order by r.i`,
            [cases.map((c) => c.closedAt), cases.map((c) => c.dueDate)],
          );
          res.rows.forEach((row, k) => {
            const c = cases[k] as Case;
            const ts = tsValue(
              evaluateRule(checked.typed, {
                row: { ...c },
                user: null,
                now,
                roleClosure: roleClosureOf(spec),
              }),
              kind,
            );
            const fromSql = sqlValue(row.v, kind);
            compared++;
            if (ts !== fromSql && failures.length < 10)
              failures.push(
                `${text} at ${JSON.stringify(c)} (session ${sessionZone}): sql ${fromSql}, ts ${ts}`,
              );
          });
        }
      }
      expect(failures).toEqual([]);
      expect(compared).toBeGreaterThan(10_000);
    },
    120_000,
  );
});

describe('the evaluator across a daylight-saving change', () => {
  const rule = (zone: string, text: string) => {
    const r = checkRule(specIn(zone), text, { entity: 'ticket', expect: 'value' });
    if (!r.ok) throw new Error(r.errors[0]?.message);
    return (closedAt: string) =>
      evaluateRule(r.typed, { row: { closedAt }, user: null, now: new Date(), roleClosure: new Map() });
  };
  it('reads Berlin wall-clock hours on both sides of the spring and autumn changes', () => {
    const hour = rule('Europe/Berlin', 'hour(closedAt)');
    expect(hour('2027-03-28T00:59:00Z')).toBe(1);
    expect(hour('2027-03-28T01:00:00Z')).toBe(3);
    expect(hour('2027-10-31T00:30:00Z')).toBe(2);
    expect(hour('2027-10-31T01:30:00Z')).toBe(2);
    expect(hour('2027-10-31T02:00:00Z')).toBe(3);
  });
  it('has 23- and 25-hour days and ISO weekdays', () => {
    const dayLength = rule(
      'Europe/Berlin',
      '(startOfDay(closedAt + days(1)) - startOfDay(closedAt)) / hours(1)',
    );
    expect(dayLength('2027-03-28T10:00:00Z')).toBe(23);
    expect(dayLength('2027-10-31T10:00:00Z')).toBe(25);
    expect(dayLength('2027-06-01T10:00:00Z')).toBe(24);
    const weekday = rule('Europe/Berlin', 'weekday(closedAt)');
    expect(weekday('2027-03-28T10:00:00Z')).toBe(7);
    expect(weekday('2027-03-28T22:30:00Z')).toBe(1);
  });
});
