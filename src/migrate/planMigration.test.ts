import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import type { AppSpec, FieldSpec } from '../spec/types.ts';
import { compileMigration } from '../sql/compileMigration.ts';
import { lockJson, lockModel, parseLock } from './lockModel.ts';
import { planMigration } from './planMigration.ts';

const base = helpdesk as AppSpec;
const lock = lockModel(base, 'supabase');

function edit(fn: (s: AppSpec) => void): AppSpec {
  const s = structuredClone(base) as AppSpec;
  fn(s);
  return s;
}

function field(s: AppSpec, entity: string, name: string): FieldSpec {
  const f = s.entities[entity]?.fields[name];
  if (!f) throw new Error(`${entity}.${name}`);
  return f;
}

describe('lockModel', () => {
  it('reads tables, columns and constraints from the migration, and survives JSON', () => {
    const t = lock.schema.tables['public.ticket'];
    expect(t?.columns.title).toEqual({ type: 'text', notNull: true });
    expect(t?.columns.priority?.default).toBe("'normal'::text");
    expect(t?.constraints.ticket__status__values?.source).toBe('inline');
    expect(lock.schema.tables['public.comment']?.constraints.comment__ticket__fk?.source).toBe('added');
    expect(lock.schema.behaviour.functions).toContain('app.has_role(uuid, text)');
    // Every trigger, constraint triggers included (their functions cannot be dropped before them).
    const triggers = lock.schema.behaviour.triggers.map(([name]) => name);
    expect(triggers).toContain('ninefold_10_on_insert');
    expect(triggers.length).toBe(
      (
        compileMigration(base, { target: 'supabase' }).match(/^create (or replace|constraint) trigger /gm) ??
        []
      ).length,
    );
    expect(lock.entities.ticket?.states?.values).toContain('pending');
    expect(parseLock(lockJson(lock))).toEqual(JSON.parse(lockJson(lock)));
    expect(lockJson(lockModel(base, 'supabase'))).toBe(lockJson(lock));
  });
});

describe('planMigration', () => {
  it('adds a column with its default for existing rows; a required one without a default waits for the guard', () => {
    const plan = planMigration(
      lock,
      edit((s) => {
        const t = s.entities.ticket;
        if (!t) return;
        t.fields.channel = { type: 'text', label: 'Channel', required: true, default: 'web' };
        t.fields.code = { type: 'text', label: 'Code', required: true };
      }),
    );
    expect(plan.refused).toEqual([]);
    expect(plan.sql).toContain(
      "alter table public.ticket add column channel text default 'web'::text not null;",
    );
    expect(plan.sql).toContain('alter table public.ticket add column code text;');
    expect(plan.sql).toMatch(
      /where code is null[\s\S]*MIGRATION_REFUSED[\s\S]*alter column code set not null/,
    );
  });

  it('renames a declared rename instead of dropping', () => {
    const plan = planMigration(
      lock,
      edit((s) => {
        const t = s.entities.ticket;
        if (!t) return;
        const f = field(s, 'ticket', 'reopenReason');
        delete t.fields.reopenReason;
        t.fields.reopenWhy = { ...f, renamedFrom: 'reopenReason' };
        s.validation.ticket = (s.validation.ticket ?? []).map((r) =>
          r.kind === 'field' && r.field === 'reopenReason' ? { ...r, field: 'reopenWhy' } : r,
        );
        const reopen = s.states.ticket?.transitions.reopen;
        if (reopen?.input) reopen.input = reopen.input.map((x) => (x === 'reopenReason' ? 'reopenWhy' : x));
      }),
    );
    expect(plan.refused).toEqual([]);
    expect(plan.losses).toEqual([]);
    expect(plan.changes).toContain('field ticket.reopenReason renamed to reopenWhy');
    expect(plan.sql).toContain('alter table public.ticket rename column reopen_reason to reopen_why;');
  });

  it('refuses to drop data without allowDestructive, listing it', () => {
    const spec = edit((s) => {
      delete s.entities.ticket?.fields.ratingComment;
      s.validation.ticket = (s.validation.ticket ?? []).filter(
        (r) => !(r.kind === 'field' && r.field === 'ratingComment'),
      );
      for (const t of Object.values(s.states.ticket?.transitions ?? {})) {
        if (t.set) delete t.set.ratingComment;
        if (t.input) t.input = t.input.filter((f) => f !== 'ratingComment');
        if (t.optionalInput) t.optionalInput = t.optionalInput.filter((f) => f !== 'ratingComment');
      }
      for (const p of Object.values(s.roles.permissions)) {
        const u = p.ticket?.update;
        if (u) u.fields = u.fields.filter((f) => f !== 'ratingComment');
      }
    });
    const plan = planMigration(lock, spec);
    expect(plan.refused.map((r) => r.code)).toEqual(['DESTRUCTIVE']);
    expect(plan.losses.map((l) => l.what)).toEqual(['field ticket.ratingComment']);
    expect(plan.losses[0]?.countSql).toBe('select count(rating_comment)::bigint as n from public.ticket');
    const allowed = planMigration(lock, spec, { allowDestructive: true });
    expect(allowed.refused).toEqual([]);
    expect(allowed.sql).toContain('alter table public.ticket drop column if exists rating_comment;');
  });

  it('moves the rows of a removed state to its mapping, and refuses without one', () => {
    const withState = edit((s) => {
      const st = s.states.ticket;
      if (st) st.states.parked = { label: 'Parked' };
    });
    const lock2 = lockModel(withState, 'supabase');
    expect(planMigration(lock2, base).refused.map((r) => r.code)).toEqual(['STATE_WITHOUT_MAPPING']);
    const mapped = edit((s) => {
      const st = s.states.ticket;
      if (st) st.removedStates = { parked: 'open' };
    });
    const plan = planMigration(lock2, mapped);
    expect(plan.refused).toEqual([]);
    expect(plan.sql).toContain(
      "update public.ticket set status = case status when 'parked' then 'open' else status end where status in ('parked');",
    );
    // The values CHECK comes back after the rows moved, guarded.
    expect(plan.sql.indexOf('update public.ticket set status')).toBeLessThan(
      plan.sql.indexOf('add constraint ticket__status__values'),
    );
  });

  it('refuses a type change without a cast; retypes with one', () => {
    const withCount = (type: FieldSpec['type']) =>
      edit((s) => {
        const t = s.entities.ticket;
        if (t) t.fields.visits = { type, label: 'Visits' };
      });
    const lock2 = lockModel(withCount('integer'), 'supabase');
    expect(planMigration(lock2, withCount('date')).refused.map((r) => r.code)).toEqual(['NO_CAST']);
    const plan = planMigration(lock2, withCount('number'));
    expect(plan.refused).toEqual([]);
    expect(plan.sql).toContain(
      'alter table public.ticket alter column visits type numeric using visits::numeric;',
    );
  });

  it('a tightened rule: refused rows counted by the guard, or kept NOT VALID', () => {
    const tight = edit((s) => {
      const c = s.constants.titleMinLength;
      if (c) c.value = 12;
    });
    const refuse = planMigration(lock, tight);
    expect(refuse.sql).toContain(
      'alter table public.ticket drop constraint if exists ticket__title_too_short__1;',
    );
    expect(refuse.sql).toMatch(
      /from public\.ticket where not \(title is null or \(char_length\(title\) >= 12\)\)/,
    );
    expect(refuse.sql).toContain('alter table public.ticket validate constraint ticket__title_too_short__1;');
    const keep = planMigration(lock, tight, { violations: 'keep' });
    expect(keep.sql).not.toContain('$guard$');
    expect(keep.sql).toMatch(
      /if v_n = 0 then alter table public\.ticket validate constraint ticket__title_too_short__1;/,
    );
  });

  it('drops every behaviour object of the lock, then runs the whole current migration', () => {
    const plan = planMigration(lock, base);
    expect(plan.changes).toEqual([]);
    expect(plan.sql).toContain('drop function if exists app.has_role(uuid, text);');
    expect(plan.sql).toContain('drop policy if exists');
    expect(plan.sql.slice(0, plan.sql.indexOf('-- 7.'))).not.toMatch(/cascade/);
    expect(plan.sql.indexOf('drop function if exists')).toBeLessThan(
      plan.sql.indexOf('create or replace function'),
    );
  });
});
