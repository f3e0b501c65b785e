import { describe, expect, it } from 'vitest';
import { loanSpec } from '../../test/enforcement/support/loanSpec.ts';
import { renderDoc } from '../doc/renderDoc.ts';
import type { AppSpec } from '../spec/types.ts';
import { importDoc } from './importDoc.ts';
import { normalizeSpec } from './normalizeSpec.ts';

describe('the document of an app with a time zone and a transition that happens by time', () => {
  it('says both, and imports back to the same specification', () => {
    const md = renderDoc(loanSpec);
    expect(md).toContain('| `libraryZone` | Time zone | `Europe/Berlin` | time zone |');
    expect(md).toContain(
      'happens by itself, as the system, once the start of the day of due date plus 1 days (`startOfDay(dueDate + days(1))`) has passed',
    );
    const r = importDoc(md);
    expect(r.diagnostics).toEqual([]);
    expect(normalizeSpec(r.draft as AppSpec)).toEqual(normalizeSpec(loanSpec));
    expect(renderDoc(r.draft as AppSpec)).toBe(md);
  });
});
