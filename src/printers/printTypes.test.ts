import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { mini } from '../sql/fixtures/mini.ts';
import { printTypes } from './printTypes.ts';
import { expectGolden, goldenFile } from './testing/golden.ts';

describe('printTypes', () => {
  it('matches the golden types of both reference apps and the mini fixture', () => {
    // The golden files are TypeScript in src/: `tsc` compiles them, and printTypes.test-d.ts
    // types a supabase-js client with the helpdesk's.
    expectGolden(goldenFile('helpdesk.types.ts'), printTypes(helpdesk));
    expectGolden(goldenFile('expenses.types.ts'), printTypes(expenses));
    expectGolden(goldenFile('mini.types.ts'), printTypes(mini));
  });

  it('types every column of every table with its nullability, and a function per transition', () => {
    const text = printTypes(mini);
    expect(text).toContain('ticket_history: {');
    expect(text).toMatch(
      /ticket_solve: \{\n\s+Args: \{ p_id: string; p_version\?: number; p_input\?: Json \}/,
    );
    // Required on insert: required fields without a default; owner and status are filled in.
    const insert = text.slice(text.indexOf('ticket: {'));
    expect(insert).toMatch(/Insert: \{[^}]*\n\s+title: string\n/);
    expect(insert).toMatch(/Insert: \{[^}]*\n\s+requester\?: string\n/);
    expect(insert).toMatch(/Row: \{[^}]*\n\s+assignee: string \| null\n/);
    expect(text).toContain('ticket_priority: "low" | "normal" | "high"');
  });
});
