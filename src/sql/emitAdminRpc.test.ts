import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { createEmbeddedBackend, type EmbeddedBackend } from '../backend/embedded/createEmbeddedBackend.ts';
import { demoAccounts } from '../backend/embedded/demo/demoAccounts.ts';
import { seedDemoAccounts } from '../backend/embedded/demo/seedDemoAccounts.ts';
import { BackendError } from '../backend/types.ts';

/**
 * The migration keeps one admin whoever removes the role (issue 14, item 4): an admin removing
 * their own admin role when nobody else holds it gets LAST_ADMIN, through set_roles, revoke_role
 * or a direct delete; with a second admin the same removal is allowed.
 */
describe('the last admin', () => {
  let backend: EmbeddedBackend;
  const admin = demoAccounts(helpdesk).find((a) => a.role === 'admin');
  const agent = demoAccounts(helpdesk).find((a) => a.role === 'agent');
  let ids: Record<string, string> = {};

  beforeAll(async () => {
    backend = await createEmbeddedBackend({ spec: helpdesk });
    ids = await backend.asOwner((tx) => seedDemoAccounts(tx, helpdesk));
    if (!admin) throw new Error('no demo admin');
    await backend.auth.signIn(admin);
  }, 120_000);
  afterAll(async () => {
    await backend?.close();
  });

  const me = async () => (await backend.auth.session())?.user.id ?? '';
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof BackendError ? e.code : String(e)),
    );

  it('refuses removing the only admin role, by every way in', async () => {
    const id = await me();
    expect(await code(backend.admin.setRoles(id, ['agent']))).toBe('LAST_ADMIN');
    expect(await code(backend.admin.setRoles(id, []))).toBe('LAST_ADMIN');
    // Checked at commit (a deferred constraint trigger), so set_roles may delete then re-insert.
    const direct = await code(
      backend.asOwner((tx) =>
        tx.query(`delete from app.user_roles where user_id = $1 and role = 'admin'`, [id]),
      ),
    );
    expect(direct).toBe('LAST_ADMIN');
    expect((await backend.admin.listUsers()).find((u) => u.id === id)?.roles).toContain('admin');
  });

  it('allows it once someone else is an admin', async () => {
    const id = await me();
    const other = agent ? ids[agent.role] : undefined;
    const otherId =
      other ?? (await backend.admin.listUsers()).find((u) => u.email === agent?.email)?.id ?? '';
    expect(await code(backend.admin.setRoles(otherId, ['agent', 'admin']))).toBe('ok');
    expect(await code(backend.admin.setRoles(id, ['agent']))).toBe('ok');
  });

  it('tells any signed-in user who holds a role a validation rule names, and only such roles', async () => {
    const customer = demoAccounts(helpdesk).find((a) => a.role === 'customer');
    if (!customer) throw new Error('no demo customer');
    await backend.auth.signIn(customer);
    const holders = (await backend.admin.roleHolders?.('agent')) ?? [];
    const agentId = (
      await backend.asOwner((tx) =>
        tx.query<{ id: string }>(`select id from auth.users where email = $1`, [agent?.email]),
      )
    ).rows[0]?.id;
    expect(holders.map((h) => h.userId)).toContain(agentId);
    expect(await code(backend.admin.roleHolders?.('admin') ?? Promise.resolve())).toBe('FORBIDDEN');
  });

  it('applies for an app whose rules name no role (expenses)', async () => {
    const other = await createEmbeddedBackend({ spec: expenses });
    await other.close();
  }, 120_000);
});
