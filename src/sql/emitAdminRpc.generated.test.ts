import { describe, expect, it } from 'vitest';
import type { AppSpec } from '../spec/types.ts';
import { compileMigration } from './compileMigration.ts';
import { createPgliteDb } from './testing/pgliteDb.ts';
import { applyMigration } from './testing/users.ts';

/**
 * Found by the generated-specification suite (test/generated): with one role and no rule naming a
 * role, `role_holders` was emitted as `case p_role else array[p_role] end` — a syntax error, so the
 * migration did not apply. Shrunk specification below.
 */
const shrunk: AppSpec = {
  purpose: { name: 'Generated', summary: 'A generated specification.', users: ['people'] },
  screens: { people: { route: '/people', kind: 'list', title: 'People', entity: 'member', nav: ['viewer'] } },
  entities: {
    member: {
      label: 'Member',
      profile: true,
      title: 'name',
      fields: { name: { type: 'text', required: true } },
    },
  },
  states: {},
  validation: {},
  roles: {
    roles: { viewer: { label: 'viewer', signup: true } },
    permissions: { viewer: { member: { read: true } } },
  },
  calls: { declared: {} },
  errors: {},
  constants: {},
};

describe('role_holders with no role named by a rule', () => {
  it('applies on PGlite', async () => {
    const db = await createPgliteDb();
    try {
      await applyMigration(db, compileMigration(shrunk));
      const r = await db.query<{ n: number }>(
        "select count(*)::int as n from pg_proc where proname = 'role_holders'",
      );
      expect(r.rows[0]?.n).toBe(1);
    } finally {
      await db.close();
    }
  }, 120_000);
});
