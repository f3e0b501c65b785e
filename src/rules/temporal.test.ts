import { describe, expect, it } from 'vitest';
import { validateSpec } from '../check/validateSpec.ts';
import { constantValueWords } from '../doc/constantValueWords.ts';
import { renderConstants } from '../doc/renderConstants.ts';
import { resolve } from '../model/resolve.ts';
import { roleClosureOf } from '../model/roleClosure.ts';
import type { AppSpec } from '../spec/types.ts';
import { checkRule } from './check.ts';
import { describeRule } from './describe.ts';
import { holds } from './evaluate.ts';
import { ruleSpec } from './fixtures/ruleSpec.ts';
import { parseRule } from './parse.ts';
import { printRule } from './print.ts';
import { parseDateText, parseDatetimeText, parseDurationText } from './temporal.ts';

const spec: AppSpec = {
  ...ruleSpec,
  constants: {
    ...ruleSpec.constants,
    ordersClose: { type: 'datetime', value: '2027-06-30T18:00:00Z', label: 'Orders close' },
    lastDay: { type: 'date', value: '2027-06-30', label: 'Last day' },
    grace: { type: 'duration', value: 'PT2H30M', label: 'Grace' },
  },
};

function rule(text: string) {
  const r = checkRule(spec, text, { entity: 'ticket' });
  if (!r.ok) throw new Error(`${text}: ${r.errors.map((e) => e.message).join('; ')}`);
  return r.typed;
}

const at = (iso: string) => ({ row: {}, user: null, now: new Date(iso), roleClosure: roleClosureOf(spec) });

describe('temporal texts', () => {
  it('reads dates, zoned datetimes and fixed-length durations, refusing the rest', () => {
    expect(parseDateText('2027-06-30')).toBe(Date.UTC(2027, 5, 30));
    expect(parseDateText('2027-02-30')).toBeNull();
    expect(parseDateText('27-06-30')).toBeNull();
    expect(parseDatetimeText('2027-06-30T18:00:00Z')).toBe(Date.UTC(2027, 5, 30, 18));
    expect(parseDatetimeText('2027-06-30T20:00+02:00')).toBe(Date.UTC(2027, 5, 30, 18));
    expect(parseDatetimeText('2027-06-30T18:00:00')).toBeNull();
    expect(parseDatetimeText('2027-06-30T24:00:00Z')).toBeNull();
    expect(parseDurationText('PT2H30M')).toBe(9_000_000);
    expect(parseDurationText('P1W2D')).toBe(9 * 86_400_000);
    expect(parseDurationText('P1M')).toBeNull();
    expect(parseDurationText('P')).toBeNull();
    expect(parseDurationText('PT')).toBeNull();
  });
});

describe('date, datetime and duration constants and literals in rules', () => {
  it('compare with now and today', () => {
    expect(holds(rule('now <= ordersClose'), at('2027-06-30T17:59:59Z'))).toBe(true);
    expect(holds(rule('now <= ordersClose'), at('2027-06-30T18:00:01Z'))).toBe(false);
    expect(holds(rule('today <= lastDay'), at('2027-06-30T23:59:00Z'))).toBe(true);
    expect(holds(rule('today <= lastDay'), at('2027-07-01T00:00:00Z'))).toBe(false);
    expect(holds(rule('ordersClose - now < grace'), at('2027-06-30T16:00:00Z'))).toBe(true);
    expect(holds(rule('ordersClose - now < grace'), at('2027-06-30T15:00:00Z'))).toBe(false);
    expect(holds(rule('now < datetime("2027-06-30T20:00:00+02:00")'), at('2027-06-30T17:00:00Z'))).toBe(true);
    expect(holds(rule('today = date("2027-06-30")'), at('2027-06-30T12:00:00Z'))).toBe(true);
    expect(holds(rule('lastDay < ordersClose'), at('2027-01-01T00:00:00Z'))).toBe(true);
  });

  it('refuse malformed literals with a positioned type error', () => {
    for (const text of ['now < date("2027-13-01")', 'now < datetime("2027-06-30")', 'now < date(3)']) {
      const r = checkRule(spec, text, { entity: 'ticket' });
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.errors[0]?.code).toBe('rule/type');
    }
  });

  it('print back and describe in words', () => {
    const p = parseRule('now <= datetime("2027-06-30T18:00:00Z") and dueDate > date(\'2027-01-01\')');
    if (!p.ok) throw new Error('parse');
    expect(printRule(p.expr)).toBe(
      "now <= datetime('2027-06-30T18:00:00Z') and dueDate > date('2027-01-01')",
    );
    expect(describeRule(p.expr, spec, 'ticket')).toContain('2027-06-30 18:00:00Z');
  });

  it('are checked in the specification and shown in the document', () => {
    expect(validateSpec(spec).diagnostics).toEqual([]);
    const bad: AppSpec = {
      ...spec,
      constants: { ...spec.constants, lastDay: { type: 'date', value: '30/06/2027', label: 'Last day' } },
    };
    expect(validateSpec(bad).diagnostics).toContainEqual(
      expect.objectContaining({ code: 'spec/invalid-value', path: 'constants.lastDay.value' }),
    );
    expect(constantValueWords('PT2H30M', 'duration')).toBe('2 hours 30 minutes');
    const doc = renderConstants(resolve(spec));
    expect(doc).toContain(
      '| `ordersClose` | Orders close | 2027-06-30 18:00:00 UTC (`2027-06-30T18:00:00Z`) | datetime |',
    );
    expect(doc).toContain('| `grace` | Grace | 2 hours 30 minutes (`PT2H30M`) | duration |');
  });
});
