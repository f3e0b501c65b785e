import { describe, expect, it } from 'vitest';
import type { Change } from '../../src/backend/types.ts';
import type { ConformanceContext } from './context.ts';

/** Reads called off, live changes, declared calls and the admin port: every spec's. */
export function portChecks(ctx: ConformanceContext): void {
  const { model, options, rejects, as } = ctx;
  const { entity, field } = options.sample;
  const b = () => ctx.b();
  const admin = ctx.roles.admin;

  describe('reads called off', () => {
    it.skipIf(options.takesSignals === false)(
      'rejects a list whose signal was aborted with an AbortError, and the next read answers',
      async () => {
        await as(ctx.roles.signup);
        const off = new AbortController();
        off.abort();
        const e = await b()
          .data.list(entity, {}, { signal: off.signal })
          .then(
            () => undefined,
            (x: unknown) => x,
          );
        expect((e as Error | undefined)?.name).toBe('AbortError');
        expect((await b().data.list(entity, { limit: 0 })).total).toEqual(expect.any(Number));
      },
    );
  });

  describe('live', () => {
    it.runIf(model.tables.get(entity)?.live === true)(
      'notifies subscribers after commits, per entity and per row',
      async () => {
        await as(ctx.roles.signup);
        const all: Change[] = [];
        const one: Change[] = [];
        const offAll = b().live.subscribe({ entity }, (c) => all.push(c));
        const t = await ctx.create('Live ticket here');
        const offOne = b().live.subscribe({ entity, id: t.id }, (c) => one.push(c));
        await ctx.create('Another live ticket');
        await b().data.update(entity, t.id, t.version, { [field]: 'Live ticket renamed' });
        await rejects(b().data.update(entity, t.id, t.version, { [field]: 'Stale' }), 'CONFLICT');
        offAll();
        offOne();
        await b().data.update(entity, t.id, t.version + 1, { [field]: 'Nobody listens' });
        await new Promise((r) => setTimeout(r, 50));
        expect(all.map((c) => c.kind)).toEqual(['insert', 'insert', 'update']);
        expect(one).toEqual([{ entity, id: t.id, kind: 'update' }]);
      },
    );
  });

  describe('declared calls', () => {
    it('refuses a call the spec does not declare', async () => {
      await as(ctx.roles.signup);
      await rejects(b().calls.invoke('launchRocket', {}), 'UNKNOWN_CALL');
    });
  });

  describe('admin', () => {
    it.runIf(admin !== undefined && options.accounts[admin ?? ''] !== undefined)(
      'lets admins list users and set roles, nobody else',
      async () => {
        const other = [...model.roles.values()].find((r) => !r.signup && !r.admin)?.name;
        await b().auth.signOut();
        const email = ctx.freshEmail('newagent');
        const s = await b().auth.signUp({ email, password: 'correct-horse' });
        await rejects(b().admin.listUsers(), 'FORBIDDEN');
        await rejects(b().admin.setRoles(s.user.id, [admin ?? '']), 'FORBIDDEN');
        await as(admin ?? '');
        const users = await b().admin.listUsers();
        expect(users.find((u) => u.email === email)?.roles).toEqual([ctx.roles.signup]);
        expect(users.find((u) => u.email === options.accounts[admin ?? '']?.email)?.roles).toEqual([admin]);
        await rejects(b().admin.setRoles(s.user.id, ['wizard']), 'INVALID_INPUT');
        if (!other) return;
        await b().admin.setRoles(s.user.id, [other]);
        await b().auth.signOut();
        const again = await b().auth.signIn({ email, password: 'correct-horse' });
        expect(again.user.roles).toEqual([other]);
      },
    );
  });
}
