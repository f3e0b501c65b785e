import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRule } from './check.ts';
import { ruleSpec } from './fixtures/ruleSpec.ts';
import { parseRule } from './parse.ts';

const valid = [
  'requester = me',
  'status in (open, pending)',
  'closedAt > now - days(reopenWindowDays)',
  'me is agent',
  'receipt is not empty',
  'tags contains urgent',
  'amount > receiptThreshold and receipt is not empty',
  "not (priority = 'high' or length(lower(title)) >= 3) and assignee is not admin",
  'product.price * 2 <= amount / 3 - -1',
  'count(review where proposal = this) >= minReviews',
  'sum(review.score where proposal = this and reviewer = this.submitter) > 1.5e1',
];

const pieces = [
  ...'()=<>!,.+-*/\'"'.split(''),
  ' and ',
  ' or ',
  ' not ',
  ' in ',
  ' is ',
  ' empty ',
  ' contains ',
  ' me',
  ' this',
  ' now',
  ' today',
  ' null',
  'count(',
  'sum(',
  'days(',
  'where',
  ' status',
  ' open',
  ' 12',
  ' 3.5e2',
  ' x',
  '.',
  '\u{1F600}',
  '\\',
  '\n',
];

/** Must return a result, never throw; also time-box each call (a hang shows as a slow run). */
function survive(text: string): void {
  const t0 = performance.now();
  const p = parseRule(text);
  expect(typeof p.ok).toBe('boolean');
  if (!p.ok) {
    expect(p.error.span.start).toBeGreaterThanOrEqual(0);
    expect(p.error.span.end).toBeGreaterThanOrEqual(p.error.span.start);
    expect(p.error.span.end).toBeLessThanOrEqual(text.length);
  }
  for (const entity of ['ticket', 'proposal', null]) {
    const c = checkRule(ruleSpec, text, { entity });
    expect(typeof c.ok).toBe('boolean');
    if (!c.ok) expect(c.errors.length).toBeGreaterThan(0);
    checkRule(ruleSpec, text, { entity, expect: 'value' });
  }
  expect(performance.now() - t0).toBeLessThan(250);
}

const mutation = fc
  .tuple(
    fc.constantFrom(...valid),
    fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.constantFrom(...pieces)), { maxLength: 4 }),
  )
  .map(([base, edits]) => {
    let s = base;
    for (const [at, del, insert] of edits) {
      const i = at % (s.length + 1);
      s = s.slice(0, i) + insert + s.slice(i + del);
    }
    return s;
  });

describe('fuzz: parseRule + checkRule never throw and never hang', () => {
  it('survives arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80, unit: 'binary' }), survive), { numRuns: 1500 });
  });
  it('survives token soup', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((a) => a.join('')),
        survive,
      ),
      { numRuns: 1500 },
    );
  });
  it('survives mutations of valid rules', () => {
    fc.assert(fc.property(mutation, survive), { numRuns: 2000 });
  });
  it('survives pathological sizes', () => {
    for (const s of [
      '('.repeat(5000),
      '('.repeat(3999),
      'not '.repeat(999),
      `${'a and '.repeat(600)}a`,
      `${'-'.repeat(3000)}1`,
      `'${'x'.repeat(3998)}`,
      `count(review where ${'count(review where '.repeat(60)}`,
    ])
      survive(s);
  });
  it('keeps every valid base rule valid', () => {
    for (const s of valid) {
      const entity = s.includes('this') || s.includes('review') ? 'proposal' : 'ticket';
      const r = checkRule(ruleSpec, s, {
        entity: s.includes('product') || s.includes('priority') ? 'ticket' : entity,
      });
      expect(r.ok, s).toBe(true);
    }
  });
});
