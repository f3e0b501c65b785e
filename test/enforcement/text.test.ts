/**
 * Text rules (issue 32, item 7), on PGlite and on the PostgreSQL server, with the browser's form
 * check beside each: a required text field refuses blank text (white space only, as JavaScript's
 * `trim` and the migration's `btrim` trim it) with REQUIRED on the field; a field unique ignoring
 * case (`unique: 'ignoreCase'`, a unique index over `lower(column)`) refuses `BILLING` beside
 * `Billing` with UNIQUE on the field, and a unique key with `ignoreCase` does the same for a pair.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorContext, mapDatabaseError } from '../../src/backend/errors/mapDatabaseError.ts';
import { resolve } from '../../src/model/resolve.ts';
import { formSchema } from '../../src/runtime/formSchema.ts';
import { ui } from '../../src/runtime/uiText.ts';
import { isBlank } from '../../src/spec/blank.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { createUser } from '../../src/sql/testing/users.ts';
import { enforcementBackends } from './support/backends.ts';
import { APPS } from './support/model.ts';

const backends = await enforcementBackends('text.test');
afterAll(async () => {
  for (const b of backends) await b.closeAll();
});

/** The helpdesk with category names unique ignoring case and saved replies unique per title and body ignoring case. */
const spec: AppSpec = (() => {
  const s = structuredClone(APPS.find((a) => a.name === 'helpdesk')?.spec) as AppSpec;
  const category = s.entities.category!;
  category.fields.name = { ...category.fields.name!, unique: 'ignoreCase' };
  s.entities.savedReply!.unique = [{ fields: ['title', 'body'], error: 'SAME_REPLY', ignoreCase: true }];
  s.errors.SAME_REPLY = { message: 'That reply is saved already.', severity: 'error' };
  return s;
})();

const BLANKS = [' ', '\t\n', '\u00a0', '\u3000 \ufeff', '\u2028'];

describe.each(backends)('text on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => {});
    return;
  }
  let db: TestDb;
  let admin: string;
  beforeAll(async () => {
    db = await backend.open(spec);
    admin = await createUser(db, 'text.admin@example.com', { roles: ['admin'], meta: { name: 'Admin' } });
  }, 120_000);
  afterAll(async () => {
    if (db) await backend.release(db);
  });

  const addCategory = (name: string) =>
    db.asUser(admin, (q) => q.query('insert into public.category (name) values ($1)', [name]));
  const mapped = (e: unknown) => mapDatabaseError(e, errorContext(spec));
  const form = () => formSchema(resolve(spec), 'category', 'create', ['admin'], { userId: admin });

  it('refuses blank required text with REQUIRED on its field, as the form does', async () => {
    for (const name of BLANKS) {
      expect(isBlank(name)).toBe(true);
      const raw = await addCategory(name).then(
        () => null,
        (e) => e,
      );
      expect(raw, JSON.stringify(name)).not.toBeNull();
      expect([mapped(raw).code, mapped(raw).field]).toEqual(['REQUIRED', 'category.name']);
      expect(form().validate({ name }, { id: admin, roles: ['admin'] }).name).toBe(ui('required'));
    }
    // Text around which there is white space, or a zero-width space alone, is not blank.
    for (const name of [' Printers ', '\u200b']) {
      await addCategory(name);
      expect(form().validate({ name }, { id: admin, roles: ['admin'] }).name).toBeUndefined();
    }
  });

  it('refuses a name that differs only in case with UNIQUE on the field', async () => {
    await addCategory('Billing');
    for (const name of ['BILLING', 'billing', 'BiLLiNG']) {
      const raw = await addCategory(name).then(
        () => null,
        (e) => e,
      );
      expect(raw, name).not.toBeNull();
      const be = mapped(raw);
      expect([be.code, be.field]).toEqual(['UNIQUE', 'category.name']);
    }
    // Another name is kept.
    await addCategory('Billing and refunds');
  });

  it('refuses a saved reply repeating a key ignoring case with the key’s own code', async () => {
    const add = (title: string, body: string) =>
      db.asUser(admin, (q) =>
        q.query('insert into public.saved_reply (title, body) values ($1, $2)', [title, body]),
      );
    await add('Thanks', 'Thank you for your patience.');
    const raw = await add('THANKS', 'thank you for your patience.').then(
      () => null,
      (e) => e,
    );
    expect(raw).not.toBeNull();
    expect(mapped(raw).code).toBe('SAME_REPLY');
    await add('Thanks', 'Thank you for waiting.');
  });
});
