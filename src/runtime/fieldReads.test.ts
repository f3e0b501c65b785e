import { describe, expect, it } from 'vitest';
import tasks from '../../examples/tasks/spec.ts';
import { clinicSpec } from '../../test/enforcement/support/clinicSpec.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { mayReadField, readableFields } from './fieldReads.ts';

const clinic = resolve(clinicSpec);
const team = resolve(tasks as AppSpec);

describe('mayReadField: columns, filters and sorting a person could ever read', () => {
  it('a field without a read rule is everyone’s who reads the row', () => {
    expect(mayReadField(clinic, ['member'], 'appointment', 'slot')).toBe(true);
  });

  it('a rule needing a global role the person lacks: never', () => {
    expect(mayReadField(clinic, ['member'], 'appointment', 'fee')).toBe(false);
    expect(mayReadField(clinic, ['staff'], 'appointment', 'fee')).toBe(true);
    expect(readableFields(clinic, ['member'], 'appointment', ['slot', 'reason', 'fee'])).toEqual([
      'slot',
      'reason',
    ]);
  });

  it('a rule over the row (the patient) or a relationship role held somewhere: possibly', () => {
    expect(mayReadField(clinic, ['member'], 'appointment', 'reason')).toBe(true);
    expect(mayReadField(team, ['member', 'orgAdmin'], 'timeEntry', 'rate')).toBe(true);
    // `organisation.owner = me or me is orgAdmin`: a founder reads it without the role.
    expect(mayReadField(team, ['member'], 'timeEntry', 'rate')).toBe(true);
  });
});
