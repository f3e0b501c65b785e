import { describe, expect, it } from 'vitest';
import { checkRule } from '../rules/check.ts';
import { ruleSpec } from '../rules/fixtures/ruleSpec.ts';
import type { AppSpec, ConstantSpec } from '../spec/types.ts';
import { validateSpec } from './validateSpec.ts';

const withConstants = (constants: Record<string, ConstantSpec>): AppSpec => ({
  ...ruleSpec,
  constants: { ...ruleSpec.constants, ...constants },
});

const zone = (value: string): ConstantSpec => ({ type: 'timezone', value, label: 'Time zone' });

describe('the app time zone', () => {
  it('accepts an IANA name and gives it to the time functions', () => {
    const spec = withConstants({ appZone: zone('Europe/Berlin') });
    expect(validateSpec(spec).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const r = checkRule(spec, 'hour(closedAt) >= 9', { entity: 'ticket' });
    expect(r.ok && r.typed.kind === 'binary' && r.typed.left.kind === 'call' && r.typed.left.zone).toBe(
      'Europe/Berlin',
    );
  });

  it('reads UTC when the app has no time zone', () => {
    const r = checkRule(ruleSpec, 'weekday(dueDate) <= 5', { entity: 'ticket' });
    expect(r.ok && r.typed.kind === 'binary' && r.typed.left.kind === 'call' && r.typed.left.zone).toBe(
      'UTC',
    );
  });

  it('refuses a zone the engine does not know, and suggests the spelling of one it knows', () => {
    const unknown = validateSpec(withConstants({ appZone: zone('Europe/Berln') })).diagnostics;
    expect(unknown).toContainEqual(
      expect.objectContaining({ code: 'spec/invalid-value', path: 'constants.appZone.value' }),
    );
    const lower = validateSpec(withConstants({ appZone: zone('europe/berlin') })).diagnostics;
    expect(lower).toContainEqual(
      expect.objectContaining({ path: 'constants.appZone.value', hint: 'write "Europe/Berlin"' }),
    );
  });

  it('refuses a second time zone', () => {
    const d = validateSpec(withConstants({ a: zone('Europe/Berlin'), b: zone('UTC') })).diagnostics;
    expect(d).toContainEqual(
      expect.objectContaining({ code: 'spec/invalid-value', path: 'constants.b.type' }),
    );
  });

  it('types the time functions and refuses them on anything but dates and times', () => {
    const spec = withConstants({ appZone: zone('Europe/Berlin') });
    for (const [text, kind] of [
      ['hour(closedAt)', 'number'],
      ['weekday(now)', 'number'],
      ['startOfDay(dueDate)', 'datetime'],
      ['date(closedAt)', 'date'],
      ['(closedAt - createdAt) / hours(1)', 'number'],
    ] as const) {
      const r = checkRule(spec, text, { entity: 'ticket', expect: 'value' });
      expect(r.ok && r.typed.type.kind, text).toBe(kind);
    }
    const bad = checkRule(spec, 'hour(title) = 3', { entity: 'ticket' });
    expect(bad.ok ? [] : bad.errors.map((e) => [e.code, e.message])).toEqual([
      ['rule/type', 'hour(...) needs a date or a date and time; this is text'],
    ]);
    const two = checkRule(spec, 'hour(closedAt, now) = 3', { entity: 'ticket' });
    expect(two.ok ? [] : two.errors.map((e) => e.code)).toEqual(['rule/type']);
  });
});
