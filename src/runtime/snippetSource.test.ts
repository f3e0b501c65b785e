import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import { snippetSource } from './snippetSource.ts';

describe('snippetSource', () => {
  it('offers saved replies for a comment', () => {
    expect(snippetSource(resolve(helpdesk), 'comment', 'body')).toEqual({
      entity: 'savedReply',
      title: 'title',
      body: 'body',
    });
  });
  it('offers nothing where no entity holds reusable text of that name', () => {
    expect(snippetSource(resolve(helpdesk), 'comment', 'note')).toBeUndefined();
    expect(snippetSource(resolve(helpdesk), 'savedReply', 'body')).toBeUndefined();
    expect(snippetSource(resolve(expenses), 'line', 'description')).toBeUndefined();
  });
});
