import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { renderDoc } from '../doc/renderDoc.ts';
import type { AppSpec } from '../spec/types.ts';
import { importDoc } from './importDoc.ts';

/** Issue 31: "Asks for" in the document says which input is optional, and reads back. */
describe('optional transition input in the document', () => {
  const doc = renderDoc(helpdesk as AppSpec);
  const rateRow = doc.split('\n').find((l) => l.startsWith('| `rate` |')) ?? '';

  it('the rating asks for "Rating, Rating comment (optional)"', () => {
    expect(rateRow).toContain('| Rating, Rating comment (optional) |');
  });

  it('reads back as input and optionalInput', () => {
    const rate = importDoc(doc).spec?.states.ticket?.transitions.rate;
    expect([rate?.input, rate?.optionalInput]).toEqual([['rating'], ['ratingComment']]);
  });

  it('a transition asking for optional input only has no required input', () => {
    const only = doc.replace(
      rateRow,
      rateRow.replace('| Rating, Rating comment (optional) |', '| Rating comment (optional) |'),
    );
    const rate = importDoc(only).spec?.states.ticket?.transitions.rate;
    expect(rate?.input).toBeUndefined();
    expect(rate?.optionalInput).toEqual(['ratingComment']);
  });

  it('an unknown optional field is reported at optionalInput, with a suggestion', () => {
    const bad = doc.replace(
      rateRow,
      rateRow.replace('Rating comment (optional)', 'Rating coment (optional)'),
    );
    const problem = importDoc(bad).diagnostics.find(
      (d) => d.path === 'states.ticket.transitions.rate.optionalInput',
    );
    expect(problem?.message).toMatch(/Rating coment/);
    expect(problem?.hint).toMatch(/Rating comment|ratingComment/);
  });
});
