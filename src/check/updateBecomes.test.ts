import { describe, expect, it } from 'vitest';
import type { AppSpec } from '../spec/types.ts';
import { checkSpec } from './checkSpec.ts';
import { miniSpec } from './fixtures/miniSpec.ts';
import { idleRoles } from './lints/idleRoles.ts';

/** The mini spec with the customer's ticket update given `becomes` (and `error`). */
function withBecomes(update: { becomes?: string; error?: string }): AppSpec {
  const spec = miniSpec();
  spec.roles.permissions.customer!.ticket!.update = { when: 'requester = me', fields: ['title'], ...update };
  return spec;
}

const errorsOf = (spec: AppSpec) => checkSpec(spec).diagnostics.filter((d) => d.severity === 'error');

describe('check: an update permission with becomes', () => {
  it('accepts a rule over the row and a catalogue error', () => {
    expect(errorsOf(withBecomes({ becomes: "title != 'urgent'", error: 'NOT_ASSIGNEE' }))).toEqual([]);
    expect(errorsOf(withBecomes({ becomes: 'status = open' }))).toEqual([]);
  });
  it('reports a rule that does not parse or names a missing field', () => {
    const path = 'roles.permissions.customer.ticket.update.becomes';
    expect(errorsOf(withBecomes({ becomes: 'status = (' }))).toContainEqual(
      expect.objectContaining({ path }),
    );
    expect(errorsOf(withBecomes({ becomes: 'colour = red' }))).toContainEqual(
      expect.objectContaining({ path }),
    );
  });
  it('reports an error missing from the catalogue, and an error without becomes', () => {
    expect(errorsOf(withBecomes({ becomes: 'status = open', error: 'NO_SUCH_CODE' }))).toContainEqual(
      expect.objectContaining({
        code: 'lint/undefined-error',
        path: 'roles.permissions.customer.ticket.update.error',
      }),
    );
    expect(errorsOf(withBecomes({ error: 'NOT_ASSIGNEE' }))).toContainEqual(
      expect.objectContaining({
        code: 'spec/invalid-value',
        path: 'roles.permissions.customer.ticket.update.error',
      }),
    );
  });
  it('reports becomes on an update that is never granted', () => {
    const spec = withBecomes({ becomes: 'status = open' });
    spec.roles.permissions.customer!.ticket!.update = {
      when: false,
      fields: ['title'],
      becomes: 'status = open',
    };
    expect(errorsOf(spec)).toContainEqual(
      expect.objectContaining({
        code: 'spec/invalid-value',
        path: 'roles.permissions.customer.ticket.update.becomes',
      }),
    );
  });
  it('a role named by a rule (`me is auditor`) is not idle', () => {
    const spec = withBecomes({ becomes: 'status = open or me is auditor' });
    spec.roles.roles.auditor = { label: 'Auditor' };
    expect(idleRoles(spec)).toEqual([]);
    expect(idleRoles(withBecomes({}))).toEqual([]);
    const unnamed = withBecomes({});
    unnamed.roles.roles.auditor = { label: 'Auditor' };
    expect(idleRoles(unnamed).map((d) => d.path)).toEqual(['roles.roles.auditor']);
  });
});

describe('check: a create permission with becomes', () => {
  const withCreate = (create: unknown): AppSpec => {
    const spec = miniSpec();
    (spec.roles.permissions.customer!.ticket as Record<string, unknown>).create = create;
    return spec;
  };
  const base = 'roles.permissions.customer.ticket.create';
  it('accepts a rule over the new row and a catalogue error', () => {
    expect(errorsOf(withCreate({ when: true, becomes: "title != 'urgent'", error: 'NOT_ASSIGNEE' }))).toEqual(
      [],
    );
  });
  it('reports its rule, its code, a create never granted, and a missing becomes at their paths', () => {
    expect(errorsOf(withCreate({ when: true, becomes: 'colour = red' }))).toContainEqual(
      expect.objectContaining({ path: `${base}.becomes` }),
    );
    expect(
      errorsOf(withCreate({ when: true, becomes: 'status = open', error: 'NO_SUCH_CODE' })),
    ).toContainEqual(expect.objectContaining({ code: 'lint/undefined-error', path: `${base}.error` }));
    expect(errorsOf(withCreate({ when: false, becomes: 'status = open' }))).toContainEqual(
      expect.objectContaining({ code: 'spec/invalid-value', path: `${base}.becomes` }),
    );
    expect(errorsOf(withCreate({ when: true }))).toContainEqual(
      expect.objectContaining({ path: `${base}.becomes` }),
    );
  });
});
