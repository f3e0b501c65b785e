import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { createEmbeddedBackend } from '../backend/embedded/createEmbeddedBackend.ts';
import { demoAccounts } from '../backend/embedded/demo/demoAccounts.ts';
import { seedDemoAccounts } from '../backend/embedded/demo/seedDemoAccounts.ts';
import { pgliteExtensions } from '../backend/embedded/pgliteExtensions.ts';
import type { Backend } from '../backend/types.ts';
import { compileMigration } from './compileMigration.ts';

/** The history's edit and "added" entries, written by the migration's triggers (PGlite, real SQL). */
describe('audited fields and children in the history', () => {
  let db: PGlite;
  let backend: Backend;
  const as = async (role: string) => {
    await backend.auth.signOut().catch(() => undefined);
    await backend.auth.signIn(demoAccounts(helpdesk).find((a) => a.role === role)!);
  };
  let ticket = '';

  beforeAll(async () => {
    db = await PGlite.create({ extensions: pgliteExtensions });
    const b = await createEmbeddedBackend({ spec: helpdesk, db });
    await b.asOwner((tx) => seedDemoAccounts(tx, helpdesk));
    backend = b;
    await as('customer');
    ticket = (
      await backend.data.create('ticket', {
        title: 'Printer',
        description: 'It jams every time I print more than one page.',
      })
    ).id;
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('a transition that sets an audited field is one transition entry, not also an edit', async () => {
    await as('agent');
    await backend.data.transition('ticket', ticket, 'take');
    const h = await backend.data.history('ticket', ticket);
    expect(h.map((x) => [x.kind, x.transition])).toEqual([['transition', 'take']]);
  });

  it('an edit of audited fields is recorded with their old and new values; others are not', async () => {
    const row = await backend.data.get('ticket', ticket);
    await backend.data.update('ticket', ticket, row.version, {
      priority: 'high',
      description: 'Now it jams on the very first page, every single time.',
    });
    const h = await backend.data.history('ticket', ticket);
    const edit = h.find((x) => x.kind === 'edit');
    expect(edit?.input).toEqual({ priority: 'high' });
    expect(edit?.previous).toEqual({ priority: 'normal' });
    expect(edit?.fromState).toBe('open');
    expect(edit?.actor).not.toBe('');
  });

  it('comments are recorded, and an internal note only for those who can read it', async () => {
    await backend.data.create('comment', { ticket, body: 'Internal: vendor issue', internal: true });
    await as('customer');
    const mine = await backend.data.create('comment', { ticket, body: 'Any news?' });
    const forCustomer = await backend.data.history('ticket', ticket);
    expect(forCustomer.filter((x) => x.kind === 'added').map((x) => [x.transition, x.input.id])).toEqual([
      ['comment', mine.id],
    ]);
    await as('agent');
    const forAgent = await backend.data.history('ticket', ticket);
    expect(forAgent.filter((x) => x.kind === 'added')).toHaveLength(2);
  });

  it('the migration declares the triggers for the marked fields only', () => {
    const sql = compileMigration(helpdesk);
    expect(sql).toContain('create or replace trigger ninefold_audit after update on public.ticket');
    expect(sql).toContain('if new.priority is distinct from old.priority then');
    expect(sql).not.toContain("v := v || jsonb_build_object('description'");
  });
});
