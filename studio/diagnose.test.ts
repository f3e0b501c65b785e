import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose } from './diagnose.ts';

const helpdesk = readFileSync(new URL('../docs/helpdesk.md', import.meta.url), 'utf8');
const RULE = '`assignee = me and status in (new, open, pending)`';

describe('diagnose', () => {
  it('finds nothing wrong in the helpdesk document', () => {
    const d = diagnose(helpdesk);
    expect(d.spec?.purpose.name).toBe('Helpdesk');
    expect(d.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
  });

  it('marks a misspelt field of a rule by itself, with the suggestion as a replacement', () => {
    const text = helpdesk.replace(RULE, RULE.replace('assignee', 'asignee'));
    const at = text.indexOf('asignee = me and status');
    const line = text.slice(0, at).split('\n').length;
    const [d] = diagnose(text).diagnostics;
    expect(d).toMatchObject({ severity: 'error', code: 'rule/unknown-name', line, from: at, to: at + 7 });
    expect(d?.fix).toEqual({ label: 'Replace with assignee', from: at, to: at + 7, insert: 'assignee' });
    const fixed = `${text.slice(0, d!.fix!.from)}${d!.fix!.insert}${text.slice(d!.fix!.to)}`;
    expect(fixed).toBe(helpdesk);
    expect(diagnose(fixed).diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
  });

  it('places a problem without a rule at its line, and offers no fix without a suggestion', () => {
    const text = helpdesk.replace('## 1. Purpose', '## 1. Porpoise');
    const d = diagnose(text);
    expect(d.spec).toBeNull();
    for (const x of d.diagnostics) {
      expect(x.from).toBeGreaterThanOrEqual(0);
      expect(x.to).toBeLessThanOrEqual(text.length);
      expect(x.line).toBeGreaterThanOrEqual(1);
    }
  });
});
