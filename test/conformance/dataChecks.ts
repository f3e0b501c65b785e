import { describe, expect, it } from 'vitest';
import type { Row } from '../../src/backend/types.ts';
import type { ConformanceContext } from './context.ts';

/** What the model says about the sample entity that the data checks depend on. */
function sampleFacts(ctx: ConformanceContext) {
  const { model, options, roles } = ctx;
  const { entity } = options.sample;
  const table = model.tables.get(entity);
  if (!table) throw new Error(`conformance: no entity ${entity}`);
  const implied = (role: string) => model.roles.get(role)?.implied ?? [role];
  const policy = (role: string, action: string) =>
    model.policies.filter(
      (p) => p.entity === entity && p.action === action && implied(role).includes(p.role),
    );
  const deleter = Object.keys(options.accounts).find((r) => policy(r, 'delete').some((p) => p.when === true));
  return {
    table,
    // Own rows only: another person's are hidden, and a fresh account's lists start empty.
    ownRowsOnly: !policy(roles.signup, 'read').some((p) => p.when === true),
    signupDeletes: policy(roles.signup, 'delete').length > 0,
    deleter,
    transition: model.transitions.find((t) => t.entity === entity && t.allowedRoles.includes(roles.signup)),
    // A reference nobody sets on create: `isNull` matches every new row.
    unset: table.columns.find(
      (c) =>
        c.references &&
        !c.notNull &&
        c.default === undefined &&
        !table.ownerFields.includes(c.field) &&
        !(c.field in options.sample.values),
    ),
  };
}

/** Reads, writes, version checks, hidden rows, deletes and lists on the sample entity. */
export function dataChecks(ctx: ConformanceContext): void {
  const { options, rejects, as } = ctx;
  const { entity, field } = options.sample;
  const b = () => ctx.b();
  const facts = sampleFacts(ctx);

  describe('data', () => {
    it('creates, reads, updates with a version check, and refuses stale versions', async () => {
      await as(ctx.roles.signup);
      const t = await ctx.create('Invoice PDF broken');
      expect(t).toMatchObject({ [field]: 'Invoice PDF broken', version: 1 });
      expect(typeof t.createdAt).toBe('string');
      expect((await b().data.get(entity, t.id))[field]).toBe('Invoice PDF broken');
      const u = await b().data.update(entity, t.id, 1, { [field]: 'Invoice PDF still broken' });
      expect(u.version).toBe(2);
      expect(u[field]).toBe('Invoice PDF still broken');
      const stale = await rejects(b().data.update(entity, t.id, 1, { [field]: 'Lost update' }), 'CONFLICT');
      expect(stale.params).toMatchObject({ current: 2 });
      expect((await b().data.get(entity, t.id))[field]).toBe('Invoice PDF still broken');
    });

    it('refuses a missing required field and an unknown one', async () => {
      await as(ctx.roles.signup);
      const missing = await rejects(b().data.create(entity, { ...options.sample.values }), 'REQUIRED');
      expect(missing.field).toBe(`${entity}.${field}`);
      await rejects(ctx.create('Unknown field', { nope: 1 }), 'INVALID_INPUT');
    });

    it.runIf(facts.ownRowsOnly)(
      'hides other people’s rows: NOT_FOUND on get, update and delete, absent from lists',
      async () => {
        await as(ctx.roles.signup);
        const mine = await ctx.create('Only mine to see');
        await b().auth.signOut();
        await b().auth.signUp({ email: ctx.freshEmail('other'), password: 'correct-horse' });
        await rejects(b().data.get(entity, mine.id), 'NOT_FOUND');
        await rejects(b().data.update(entity, mine.id, 1, { [field]: 'Hijacked title' }), 'NOT_FOUND');
        if (facts.transition)
          await rejects(b().data.transition(entity, mine.id, facts.transition.name), 'NOT_FOUND');
        expect((await b().data.list(entity)).total).toBe(0);
        await rejects(b().data.get(entity, 'not-a-uuid'), 'NOT_FOUND');
        await rejects(b().data.get('nope', mine.id), 'UNKNOWN_ENTITY');
      },
    );

    it.runIf(!facts.signupDeletes && facts.deleter !== undefined)('deletes only when permitted', async () => {
      await as(ctx.roles.signup);
      const t = await ctx.create('Delete me please');
      await rejects(b().data.delete(entity, t.id), 'FORBIDDEN');
      await as(facts.deleter ?? '');
      await b().data.delete(entity, t.id);
      await rejects(b().data.get(entity, t.id), 'NOT_FOUND');
      await rejects(b().data.delete(entity, t.id), 'NOT_FOUND');
    });

    it.runIf(facts.ownRowsOnly)('lists with filters, search, sort, pages and exact counts', async () => {
      await b().auth.signOut();
      await b().auth.signUp({ email: ctx.freshEmail('lister'), password: 'correct-horse' });
      await listChecks(ctx, facts.unset?.field);
    });
  });
}

async function listChecks(ctx: ConformanceContext, unsetField: string | undefined): Promise<void> {
  const { entity, field } = ctx.options.sample;
  const b = () => ctx.b();
  const made: Row[] = [];
  for (let i = 0; i < 7; i++)
    made.push(await ctx.create(`Report ${String.fromCharCode(65 + i)} ${i % 2 ? 'VPN' : '100%_done'}`));
  const text = (i: number) => String(made[i]?.[field]);
  expect((await b().data.list(entity)).total).toBe(7);
  const one = await b().data.list(entity, { filters: [{ field, op: 'eq', value: text(2) }] });
  expect(one.rows.map((r) => r.id)).toEqual([made[2]?.id]);
  const some = await b().data.list(entity, { filters: [{ field, op: 'in', value: [text(1), text(4)] }] });
  expect(some.total).toBe(2);
  expect((await b().data.list(entity, { filters: [{ field, op: 'neq', value: text(0) }] })).total).toBe(6);
  if (unsetField)
    expect((await b().data.list(entity, { filters: [{ field: unsetField, op: 'isNull' }] })).total).toBe(7);
  // Search is case-insensitive and takes % and _ literally.
  expect((await b().data.list(entity, { search: 'vpn' })).total).toBe(3);
  expect((await b().data.list(entity, { search: '100%_' })).total).toBe(4);
  expect((await b().data.list(entity, { search: '0%d' })).total).toBe(0);
  const sorted = await b().data.list(entity, { sort: [{ field, direction: 'desc' }], limit: 3 });
  expect(sorted.rows.map((r) => String(r[field]).slice(0, 8))).toEqual(['Report G', 'Report F', 'Report E']);
  expect(sorted.total).toBe(7);
  const page3 = await b().data.list(entity, { sort: [{ field, direction: 'asc' }], offset: 6, limit: 3 });
  expect(page3.rows.map((r) => r.id)).toEqual([made[6]?.id]);
  expect(page3.total).toBe(7);
  const past = await b().data.list(entity, { offset: 50 });
  expect([past.rows.length, past.total]).toEqual([0, 7]);
  expect((await b().data.list(entity, { count: 'none', limit: 2 })).total).toBeNull();
  expect((await b().data.list(entity, { limit: 2 })).rows).toHaveLength(2);
  expect(await b().data.list(entity, { limit: 0 })).toEqual({ rows: [], total: 7 });
  await ctx.rejects(
    b().data.list(entity, { filters: [{ field: 'secret', op: 'eq', value: 1 }] }),
    'INVALID_INPUT',
  );
}
