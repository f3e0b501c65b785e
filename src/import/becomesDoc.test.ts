import { describe, expect, it } from 'vitest';
import { renderDoc } from '../doc/renderDoc.ts';
import { fixtureSpec } from '../runtime/testing/fixtureSpec.ts';
import type { AppSpec } from '../spec/types.ts';
import { importDoc } from './importDoc.ts';
import { normalizeSpec } from './normalizeSpec.ts';

/** The fixture's agent changes priorities, but only an admin makes a ticket urgent. */
function withBecomes(error?: string): AppSpec {
  const update = {
    when: true,
    fields: ['priority', 'assignee'],
    becomes: 'priority != high or me is admin',
    ...(error ? { error } : {}),
  };
  return {
    ...fixtureSpec,
    roles: {
      ...fixtureSpec.roles,
      permissions: {
        ...fixtureSpec.roles.permissions,
        agent: { ticket: { read: true, update, delete: false } },
      },
    },
    errors: {
      ...fixtureSpec.errors,
      ONLY_ADMIN_RAISES: { message: 'Only an administrator makes a ticket urgent.', severity: 'error' },
    },
  };
}

describe('the nine-point document: an update that looks at the row as it becomes', () => {
  it.each([
    ['with its error', withBecomes('ONLY_ADMIN_RAISES')],
    ['with the default error', withBecomes()],
  ])('%s: prints it, reads it back the same, and prints the same document again', (_, spec) => {
    const md = renderDoc(spec);
    expect(md).toContain(
      `: Priority, Assignee; only if it becomes \`priority != high or me is admin\`${spec.roles.permissions.agent?.ticket?.update && (spec.roles.permissions.agent.ticket.update as { error?: string }).error ? ' (`ONLY_ADMIN_RAISES`)' : ''}`,
    );
    const r = importDoc(md);
    expect(r.diagnostics).toEqual([]);
    // (The fixture's status field lists its values, which the document leaves to the states.)
    expect(r.spec?.roles).toEqual((normalizeSpec(spec) as AppSpec).roles);
    expect(r.spec?.errors).toEqual((normalizeSpec(spec) as AppSpec).errors);
    expect(renderDoc(r.spec as AppSpec)).toBe(md);
  });
  it('an inherited grant carries it too, and is not read as the role’s own', () => {
    const md = renderDoc(withBecomes('ONLY_ADMIN_RAISES'));
    expect(md).toMatch(
      /\| Admin \|.*only if it becomes `priority != high or me is admin` \(`ONLY_ADMIN_RAISES`\) \(from Agent\)/,
    );
    expect((importDoc(md).spec as AppSpec).roles.permissions.admin?.ticket?.update).toBeUndefined();
  });
  it('a becomes it cannot read is an error, never dropped', () => {
    const md = renderDoc(withBecomes('ONLY_ADMIN_RAISES')).replace(
      '; only if it becomes `priority != high or me is admin` (`ONLY_ADMIN_RAISES`)',
      '; only if it becomes priority != high (ONLY_ADMIN_RAISES)',
    );
    expect(importDoc(md).diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'doc/invalid-value',
        path: 'roles.permissions.agent.ticket.update.becomes',
      }),
    );
  });
});

/** The fixture's customers file tickets, but only an admin files one urgent. */
function createWithBecomes(error?: string): AppSpec {
  const spec = withBecomes(error);
  const create = { when: true, becomes: 'priority != high or me is admin', ...(error ? { error } : {}) };
  return {
    ...spec,
    roles: {
      ...spec.roles,
      permissions: {
        ...spec.roles.permissions,
        customer: {
          ...spec.roles.permissions.customer,
          ticket: { ...spec.roles.permissions.customer?.ticket, create },
        },
      },
    },
  };
}

describe('the nine-point document: a create that looks at the row it makes', () => {
  it.each([
    ['with its error', createWithBecomes('ONLY_ADMIN_RAISES')],
    ['with the default error', createWithBecomes()],
  ])('%s: prints it in the Create cell, reads it back the same, prints the same again', (label, spec) => {
    const md = renderDoc(spec);
    const words = `always; only if it becomes \`priority != high or me is admin\`${label === 'with its error' ? ' (`ONLY_ADMIN_RAISES`)' : ''}`;
    expect(md).toMatch(
      new RegExp(`\\| Customer \\| [^|]+ \\| ${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\|`),
    );
    const r = importDoc(md);
    expect(r.diagnostics).toEqual([]);
    expect(r.spec?.roles).toEqual((normalizeSpec(spec) as AppSpec).roles);
    expect(renderDoc(r.spec as AppSpec)).toBe(md);
  });
  it('in a Read or Delete cell it is an error, never dropped', () => {
    const md = renderDoc(createWithBecomes('ONLY_ADMIN_RAISES')).replace(
      '| Customer | when the requester is the current user (`requester = me`) |',
      '| Customer | when the requester is the current user (`requester = me`); only if it becomes `priority != high` (`ONLY_ADMIN_RAISES`) |',
    );
    expect(md).toContain('(`requester = me`); only if it becomes');
    expect(importDoc(md).diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'doc/invalid-value',
        path: 'roles.permissions.customer.ticket.read.becomes',
      }),
    );
  });
});
