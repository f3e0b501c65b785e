import { CompletionContext } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import helpdesk from '../examples/helpdesk/spec.ts';
import { nameCompletion, specNames } from './completion.ts';

const names = specNames(helpdesk);
const complete = (text: string, explicit = false) =>
  nameCompletion(() => names)(
    new CompletionContext(EditorState.create({ doc: text }), text.length, explicit),
  );

describe('name completion', () => {
  it('offers entities, fields, states, roles, errors and constants', () => {
    const of = (label: string) => names.find((n) => n.label === label)?.detail;
    expect(of('ticket')).toBe('entity');
    expect(of('assignee')).toBe('field of ticket');
    expect(of('pending')).toBe('state of ticket');
    expect(of('agent')).toBe('role');
    expect(of('NOT_ASSIGNEE')).toBe('error');
    expect(of('reopenWindowDays')).toBe('constant');
  });

  it('completes inside a code span, from the start of the word', () => {
    const r = complete('- Shows only rows where `assig');
    expect(r?.from).toBe('- Shows only rows where `'.length);
    expect(r?.options.map((o) => o.label)).toContain('assignee');
  });

  it('stays out of prose unless asked', () => {
    expect(complete('The assig')).toBeNull();
    expect(complete('The assig', true)?.options.length).toBe(names.length);
  });
});
