import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { payloadFills } from '../spec/callFills.ts';
import type { AppSpec, DeclaredCallSpec } from '../spec/types.ts';
import { validateSpec } from './validateSpec.ts';

/** The app with one declared call changed; its diagnostics (errors and warnings). */
function withCall(
  app: AppSpec,
  call: string,
  change: (c: DeclaredCallSpec) => DeclaredCallSpec,
): Diagnostic[] {
  const c = app.calls.declared[call] as DeclaredCallSpec;
  const spec = { ...app, calls: { declared: { ...app.calls.declared, [call]: change(c) } } };
  return validateSpec(spec).diagnostics;
}

const pick = (ds: Diagnostic[]) => ds.map((d) => ({ code: d.code, path: d.path, severity: d.severity }));

describe('check: payload fills of declared calls (issue 11, finding 11)', () => {
  it('the reference specs fill every key of the calls their transitions queue', () => {
    expect(validateSpec(helpdesk).diagnostics).toEqual([]);
    expect(validateSpec(expenses).diagnostics).toEqual([]);
    expect(payloadFills(helpdesk, 'ticket', 'notifyRequester').map((f) => [f.key, f.declared])).toEqual([
      ['ticketId', false],
      ['to', true],
      ['subject', true],
      ['body', true],
    ]);
    const lines = payloadFills(expenses, 'claim', 'exportJournalEntry').find((f) => f.key === 'lines');
    expect(lines?.source).toMatchObject({
      kind: 'rows',
      entity: 'line',
      ref: 'claim',
      items: [{ key: 'date' }, { key: 'category' }, { key: 'description' }, { key: 'amount' }],
    });
  });

  it('a required key nothing fills is an error at the fill path it needs', () => {
    const ds = withCall(helpdesk, 'notifyRequester', (c) => {
      const { to: _to, ...fill } = c.fill ?? {};
      return { ...c, fill };
    });
    expect(pick(ds)).toEqual([
      { code: 'spec/missing', path: 'calls.declared.notifyRequester.fill.to', severity: 'error' },
    ]);
    expect(ds[0]?.message).toContain('ticket.solve');
    // An optional key may stay empty.
    const optional = withCall(expenses, 'exportJournalEntry', (c) => {
      const { costCentre: _c, ...fill } = c.fill ?? {};
      return { ...c, fill };
    });
    expect(optional).toEqual([]);
  });

  it('a key that is not in the payload is an error with a did-you-mean', () => {
    const ds = withCall(helpdesk, 'notifyRequester', (c) => ({ ...c, fill: { ...c.fill, subjekt: "'x'" } }));
    expect(pick(ds)).toEqual([
      { code: 'spec/unknown-name', path: 'calls.declared.notifyRequester.fill.subjekt', severity: 'error' },
    ]);
    expect(ds[0]?.hint).toContain('subject');
  });

  it('a value of the wrong type, a template for a number, and a misspelt placeholder are errors', () => {
    const wrong = withCall(helpdesk, 'notifyRequester', (c) => ({
      ...c,
      fill: { ...c.fill, to: 'priority' },
    }));
    expect(pick(wrong)).toEqual([
      { code: 'rule/type', path: 'calls.declared.notifyRequester.fill.to', severity: 'error' },
    ]);
    expect(wrong[0]?.message).toContain('"priority" is one of (');
    const total = withCall(expenses, 'exportJournalEntry', (c) => ({
      ...c,
      fill: { ...c.fill, total: '{total} EUR' },
    }));
    expect(pick(total)).toEqual([
      { code: 'rule/type', path: 'calls.declared.exportJournalEntry.fill.total', severity: 'error' },
    ]);
    const misspelt = withCall(helpdesk, 'notifyRequester', (c) => ({
      ...c,
      fill: { ...c.fill, subject: 'Solved: {titel}' },
    }));
    expect(pick(misspelt)).toEqual([
      { code: 'rule/unknown-name', path: 'calls.declared.notifyRequester.fill.subject', severity: 'error' },
    ]);
    // The span points into the template, at the placeholder.
    expect(misspelt[0]?.span).toEqual({ start: 9, end: 14 });
    expect(misspelt[0]?.hint).toContain('title');
  });

  it('a list comes from a child entity with one reference to the row, its items filled in full', () => {
    const unknown = withCall(expenses, 'exportJournalEntry', (c) => ({
      ...c,
      fill: { ...c.fill, lines: { rows: 'lines' } },
    }));
    expect(pick(unknown)).toEqual([
      {
        code: 'spec/unknown-name',
        path: 'calls.declared.exportJournalEntry.fill.lines.rows',
        severity: 'error',
      },
    ]);
    // Receipts reference the claim, but have no date, category, description or amount.
    const receipts = withCall(expenses, 'exportJournalEntry', (c) => ({
      ...c,
      fill: { ...c.fill, lines: { rows: 'receipt', fill: { description: 'name' } } },
    }));
    expect(pick(receipts).map((d) => d.path)).toEqual([
      'calls.declared.exportJournalEntry.fill.lines.fill.date',
      'calls.declared.exportJournalEntry.fill.lines.fill.category',
      'calls.declared.exportJournalEntry.fill.lines.fill.amount',
    ]);
    const notAList = withCall(expenses, 'exportJournalEntry', (c) => ({
      ...c,
      fill: { ...c.fill, reference: { rows: 'line' } },
    }));
    expect(pick(notAList)).toEqual([
      { code: 'spec/type', path: 'calls.declared.exportJournalEntry.fill.reference', severity: 'error' },
    ]);
    // A list item's value is checked over the child row.
    const item = withCall(expenses, 'exportJournalEntry', (c) => ({
      ...c,
      fill: { ...c.fill, lines: { rows: 'line', fill: { amount: 'merchant' } } },
    }));
    expect(pick(item)).toEqual([
      {
        code: 'rule/type',
        path: 'calls.declared.exportJournalEntry.fill.lines.fill.amount',
        severity: 'error',
      },
    ]);
  });

  it('a fill must have the right shape', () => {
    const ds = withCall(helpdesk, 'notifyRequester', (c) => ({
      ...c,
      fill: { ...c.fill, to: 42 as unknown as string },
    }));
    expect(pick(ds)).toEqual([
      { code: 'spec/type', path: 'calls.declared.notifyRequester.fill.to', severity: 'error' },
    ]);
  });
});
