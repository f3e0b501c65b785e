import { describe, expect, it } from 'vitest';
import helpdesk from '../examples/helpdesk/spec.ts';
import tasks from '../examples/tasks/spec.ts';
import { resolve } from '../src/model/resolve.ts';
import { outline, permissionMatrix } from './views.ts';

describe('permissionMatrix', () => {
  const rows = permissionMatrix(resolve(helpdesk));
  const cell = (role: string, entity: string, action: string) =>
    rows.find((r) => r.role === role && r.entity === entity)?.cells.find((c) => c.action === action);

  it('has a row per role and entity, a cell per operation', () => {
    expect(rows.length).toBe(resolve(helpdesk).roles.size * resolve(helpdesk).tables.size);
    for (const r of rows)
      expect(r.cells.map((c) => c.action)).toEqual(['read', 'create', 'update', 'delete']);
  });

  it('names the rule that decides a cell, and where an inherited permission comes from', () => {
    expect(cell('customer', 'ticket', 'read')).toMatchObject({
      decides: ['requester = me'],
      from: ['customer'],
    });
    expect(cell('customer', 'ticket', 'delete')).toMatchObject({ decides: 'never' });
    const admin = cell('admin', 'ticket', 'read');
    expect(admin?.decides).toBe('always');
    expect(admin?.from).toContain('agent');
  });

  it('shows what a create or an update must make of the row, with its code', () => {
    const taskRows = permissionMatrix(resolve(tasks));
    const at = (action: string) =>
      taskRows
        .find((r) => r.role === 'member' && r.entity === 'membership')
        ?.cells.find((c) => c.action === action);
    const owners = {
      rule: 'role != owner or organisation.owner = me or me is orgOwner',
      error: 'ONLY_OWNER_MAKES_OWNER',
    };
    expect(at('create')?.becomes).toEqual([owners]);
    expect(at('update')?.becomes).toEqual([owners]);
    expect(at('read')?.becomes).toEqual([]);
    expect(cell('customer', 'ticket', 'create')?.becomes).toEqual([]);
  });
});

describe('outline', () => {
  it('lists the level-two headings with their lines and offsets, not inside code', () => {
    const text = '# App\n\n## 1. Purpose\n\n```\n## not a heading\n```\n## 2. Screens ##\n';
    expect(outline(text)).toEqual([
      { title: '1. Purpose', line: 3, from: 7 },
      { title: '2. Screens', line: 8, from: text.indexOf('## 2.') },
    ]);
  });
});
