import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import tasks from '../../examples/tasks/spec.ts';
import type { AppSpec } from '../spec/types.ts';
import { enumValueNodes } from './enumValue.ts';
import { FIELD_FORMATS, formatRegExp } from './formats.ts';
import { humanize } from './humanize.ts';
import { tableByName, tableOf } from './lookup.ts';
import { resolve } from './resolve.ts';

describe('resolve', () => {
  const model = resolve(helpdesk);

  it('maps entities to tables and fields to columns, implicit and file columns included', () => {
    const ticket = tableOf(model, 'ticket');
    expect(ticket.ref).toBe('public.ticket');
    expect(ticket.byField.get('createdAt')?.column).toBe('created_at');
    expect(ticket.statusField).toBe('status');
    const attachment = tableOf(model, 'attachment');
    expect(attachment.byField.get('size')?.column).toBe('size_bytes');
    expect(attachment.byField.get('type')?.column).toBe('mime_type');
    expect(attachment.byColumn.get('uploaded_by')?.field).toBe('uploadedBy');
    expect(tableByName(model, 'saved_reply')?.entity).toBe('savedReply');
    expect(() => tableOf(model, 'toString')).toThrow(/UNKNOWN_ENTITY/);
  });

  it('resolves the profile entity, references and role inheritance', () => {
    expect(model.profile).toBe('person');
    const uploadedBy = tableOf(model, 'attachment').references.find((r) => r.field === 'uploadedBy');
    expect(uploadedBy).toMatchObject({
      target: 'person',
      onDelete: 'restrict',
      constraintName: 'attachment__uploaded_by__fk',
    });
    expect(model.roles.get('admin')?.implied).toEqual(['admin', 'agent']);
    expect(model.roles.get('agent')?.holders).toEqual(['agent', 'admin']);
    expect(model.roles.get('admin')?.admin).toBe(true);
    expect(model.roles.get('customer')?.admin).toBe(false);
  });

  it('gives the status field its states as values, labelled', () => {
    const status = tableOf(model, 'ticket').byField.get('status');
    expect(status?.notNull).toBe(true);
    expect(status?.values?.map((v) => v.value)).toEqual(Object.keys(helpdesk.states.ticket?.states ?? {}));
    expect(status?.values?.every((v) => v.label.length > 0)).toBe(true);
  });

  it('names policies, transition functions, constraints and maps codes to them', () => {
    expect(model.policies.some((p) => p.name === 'ticket__customer__read')).toBe(true);
    const t = model.transitions.find((x) => x.entity === 'ticket' && x.roles.includes('agent'));
    expect(t?.functionName.startsWith('ticket_')).toBe(true);
    expect(t?.allowedRoles).toContain('admin');
    const c = model.constraints.get('ticket__title_too_short__1');
    expect(c).toMatchObject({ entity: 'ticket', kind: 'validation', code: 'TITLE_TOO_SHORT' });
    expect(model.errors.get('TITLE_TOO_SHORT')?.sql.constraints).toContain('ticket__title_too_short__1');
    expect(model.errors.get('NOT_FOUND')?.builtin).toBe(true);
    expect(model.constants.get('reopenWindowDays')?.value).toBe(7);
    expect(model.screens.get('ticket')?.params).toEqual(['id']);
  });

  it('indexes reference columns', () => {
    const idx = tableOf(model, 'comment').indexes.find((i) => i.field === 'ticket');
    expect(idx?.reasons).toContain('reference');
    expect(idx?.name).toBe('comment__ticket__idx');
  });

  it('indexes each list screen by what its rows are found by, then its sort', () => {
    const columns = (spec: AppSpec, entity: string) =>
      tableOf(resolve(spec), entity).indexes.map((i) => (i.columns ?? [i.column]).join(','));
    // `status = new and … and ((priority = urgent and createdAt < …) or …)`: the page walks the
    // first in its order, the total reads one range of the second per priority.
    expect(columns(helpdesk, 'ticket')).toEqual(
      expect.arrayContaining(['status,created_at,id', 'status,priority,created_at,id']),
    );
    // `submitter.manager = me` (the runtime sends `submitter in (my reports)`) leads.
    expect(columns(expenses, 'claim')).toContain('submitter,status,submitted_at,id');
    // A member reads the tasks of their organisations (`me is orgMember`): `organisation in (…)`.
    expect(columns(tasks, 'task')).toContain('organisation,status,due_date,id');
    // What the read policies and the screen's filters read is stored beside the keys: a filtered
    // total under row-level security reads the index alone.
    const paid = tableOf(resolve(expenses), 'claim').indexes.find(
      (i) => i.name === 'claim__status__paid_at__id__idx',
    );
    expect(paid?.include).toEqual(['currency', 'submitter']);
    // A text sort reads `lower(name)`, which no index on the column serves.
    expect(columns(tasks, 'project').some((c) => c.endsWith('name,id'))).toBe(false);
  });

  it('is pure and cached per spec object', () => {
    expect(resolve(helpdesk)).toBe(model);
    const copy = JSON.parse(JSON.stringify(expenses)) as AppSpec;
    expect(JSON.stringify([...resolve(copy).tables.keys()])).toBe(
      JSON.stringify([...resolve(expenses).tables.keys()]),
    );
  });
});

describe('enum values', () => {
  it('accepts names and { value, label, color } objects', () => {
    expect(enumValueNodes(['low', { value: 'high', color: 'red' }, { value: 'P1', label: 'Top' }])).toEqual([
      { value: 'low', label: 'Low' },
      { value: 'high', label: 'High', color: 'red' },
      { value: 'P1', label: 'Top' },
    ]);
  });
});

describe('humanize', () => {
  it('spells names out and keeps codes', () => {
    expect(humanize('solvedAt')).toBe('Solved at');
    expect(humanize('waiting_on_customer')).toBe('Waiting on customer');
    expect(humanize('receiptURL')).toBe('Receipt url');
    expect(humanize('EUR')).toBe('EUR');
  });
});

describe('formats', () => {
  it('compile in JavaScript to what they say', () => {
    expect(formatRegExp('phone').test('030/123456')).toBe(true);
    expect(formatRegExp('currency').test('usd')).toBe(false);
    expect(formatRegExp('currency').test('USD')).toBe(true);
    expect(formatRegExp('url').test('http://a')).toBe(true);
    expect(formatRegExp('url').test('http:///a')).toBe(false);
    expect(formatRegExp('email').test('a@b.c')).toBe(true);
    expect(formatRegExp('email').test('a b@c.d')).toBe(false);
    for (const f of Object.values(FIELD_FORMATS)) expect(f.pattern).not.toMatch(/\[:/);
  });
});
