import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { columnValues } from './columnValues.ts';
import { resolve } from './resolve.ts';

describe('columnValues', () => {
  it('gives the states of a status field, with their labels, in the spec order', () => {
    const states = Object.keys(helpdesk.states.ticket?.states ?? {});
    expect(columnValues(helpdesk, 'ticket', 'status')?.map((v) => v.value)).toEqual(states);
    expect(columnValues(helpdesk, 'ticket', 'status')?.[0]).toEqual({ value: 'new', label: 'New' });
  });
  it('gives the declared values of an enum and nothing for a plain field or an unknown one', () => {
    expect(columnValues(helpdesk, 'ticket', 'priority')?.length).toBeGreaterThan(1);
    expect(columnValues(helpdesk, 'ticket', 'title')).toBeUndefined();
    expect(columnValues(helpdesk, 'ticket', 'nope')).toBeUndefined();
    expect(columnValues(helpdesk, 'nope', 'status')).toBeUndefined();
  });
  it('is what the app model holds for every column of both reference apps', () => {
    for (const spec of [helpdesk, expenses])
      for (const [name, table] of resolve(spec).tables)
        for (const [field, column] of table.byField)
          if (field in (spec.entities[name]?.fields ?? {}))
            expect(columnValues(spec, name, field), `${name}.${field}`).toEqual(column.values);
  });
});
