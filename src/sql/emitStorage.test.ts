import { describe, expect, it } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec, ValidationRuleSpec } from '../spec/types.ts';
import { emitAdminRpc } from './emitAdminRpc.ts';
import { emitRealtime } from './emitRealtime.ts';
import { emitStorage, fileSizeLimit } from './emitStorage.ts';
import { mini } from './fixtures/mini.ts';

const desk = helpdesk as AppSpec;

function withRules(spec: AppSpec, entity: string, rules: ValidationRuleSpec[]): AppSpec {
  return { ...spec, validation: { ...spec.validation, [entity]: rules } };
}

describe('fileSizeLimit', () => {
  it('reads the bound from the size rule and its constants', () => {
    expect(fileSizeLimit(resolve(desk), 'attachment')).toBe(10 * 1048576);
  });

  it('takes the smallest unconditional bound, in whole bytes', () => {
    const spec = withRules(mini, 'attachment', [
      { kind: 'row', rule: 'size < 1000.5', error: 'A' },
      { kind: 'row', rule: '2000 >= size and name != ""', error: 'B' },
      { kind: 'row', rule: 'size <= 10', when: 'name = "x"', error: 'C' },
    ]);
    expect(fileSizeLimit(resolve(spec), 'attachment')).toBe(1000);
    expect(
      fileSizeLimit(
        resolve(withRules(mini, 'attachment', [{ kind: 'field', field: 'size', max: 512, error: 'D' }])),
        'attachment',
      ),
    ).toBe(512);
  });

  it('has no bound when no rule bounds size by constants', () => {
    expect(fileSizeLimit(resolve(withRules(mini, 'attachment', [])), 'attachment')).toBeUndefined();
    const spec = withRules(mini, 'attachment', [{ kind: 'row', rule: 'size > 0 or size <= 5', error: 'E' }]);
    expect(fileSizeLimit(resolve(spec), 'attachment')).toBeUndefined();
  });
});

describe('emitStorage', () => {
  it('makes a private bucket and three guarded policies per files entity', () => {
    const sql = emitStorage(resolve(desk), 'attachment');
    expect(sql).toContain(
      "insert into storage.buckets (id, name, public, file_size_limit) values ('attachment', 'attachment', false, 10485760) on conflict (id) do nothing;",
    );
    for (const a of ['read', 'create', 'delete']) {
      expect(sql).toContain(`drop policy if exists ninefold__attachment__${a} on storage.objects;`);
      expect(sql).toContain(`create policy ninefold__attachment__${a} on storage.objects`);
    }
    // The delete policy carries the table's delete rules (a customer: own upload, ticket still open).
    expect(sql).toMatch(/__delete .*_f\.uploaded_by = \(select auth\.uid\(\)\).*'new', 'open', 'pending'/);
    expect(emitStorage(resolve(desk), 'ticket')).toBe('');
  });

  it('creates no policy for an action no role has', () => {
    const spec: AppSpec = {
      ...mini,
      roles: {
        ...mini.roles,
        permissions: Object.fromEntries(
          Object.entries(mini.roles.permissions).map(([r, p]) => [
            r,
            { ...p, attachment: { read: true, create: true, update: false, delete: false } },
          ]),
        ),
      },
    };
    const sql = emitStorage(resolve(spec), 'attachment');
    expect(sql).toContain('drop policy if exists ninefold__attachment__delete on storage.objects;');
    expect(sql).not.toContain('create policy ninefold__attachment__delete');
  });
});

describe('emitRealtime and emitAdminRpc', () => {
  it('adds live tables only when the publication exists and lacks them', () => {
    const sql = emitRealtime(resolve(desk));
    expect(sql).toContain(
      "if exists (select 1 from pg_catalog.pg_publication where pubname = 'supabase_realtime')",
    );
    expect(sql).toContain('alter publication supabase_realtime add table public.ticket;');
    expect(sql).toContain('alter publication supabase_realtime add table public.comment;');
    expect(sql).not.toContain('public.attachment');
    expect(emitRealtime(resolve({ ...mini, entities: {} }))).toBe('');
  });

  it('guards both admin functions with app.is_admin()', () => {
    const sql = emitAdminRpc(resolve(desk));
    expect(sql.match(/if not coalesce\(app\.is_admin\(\), false\) then/g)).toHaveLength(2);
    expect(sql).toContain('grant execute on function public.set_roles(uuid, text[]) to authenticated;');
  });
});
