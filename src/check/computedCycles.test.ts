import { describe, expect, it } from 'vitest';
import { billing } from '../../test/enforcement/support/billing.ts';
import type { AppSpec } from '../spec/types.ts';
import { validateSpec } from './validateSpec.ts';

const spec = () => structuredClone(billing) as AppSpec;
const fields = (s: AppSpec, entity: string) =>
  s.entities[entity]?.fields as AppSpec['entities'][string]['fields'];
const problems = (s: AppSpec) =>
  validateSpec(s).diagnostics.map((d) => ({ path: d.path, message: d.message }));

describe('computed fields reading each other round: check', () => {
  it('accepts a chain (organisation currency → project currency → entry currency)', () => {
    expect(problems(spec())).toEqual([]);
  });

  it('refuses two entities computed from each other', () => {
    const s = spec();
    fields(s, 'organisation').lead = { type: 'ref', ref: 'project' };
    fields(s, 'organisation').badge = { type: 'text', computed: 'lead.tag' };
    fields(s, 'project').tag = { type: 'text', computed: 'organisation.badge' };
    expect(problems(s)).toEqual([
      {
        path: 'entities.organisation.fields.badge.computed',
        message: expect.stringContaining('organisation.badge ← project.tag ← organisation.badge'),
      },
    ]);
  });

  it('refuses a tree whose field is computed from its parent’s (a loop of rows would never end)', () => {
    const s = spec();
    fields(s, 'project').parent = { type: 'ref', ref: 'project' };
    fields(s, 'project').depth = { type: 'integer', computed: 'parent.depth + 1' };
    expect(problems(s)).toEqual([
      { path: 'entities.project.fields.depth.computed', message: expect.stringContaining('project.depth') },
    ]);
  });

  it('refuses a cycle through a field of the same row', () => {
    const s = spec();
    fields(s, 'organisation').lead = { type: 'ref', ref: 'project' };
    fields(s, 'organisation').code = { type: 'text', computed: 'lead.tag' };
    fields(s, 'organisation').badge = { type: 'text', computed: 'code' };
    fields(s, 'project').tag = { type: 'text', computed: 'organisation.badge' };
    expect(problems(s).map((p) => p.path)).toEqual(['entities.organisation.fields.badge.computed']);
  });
});
