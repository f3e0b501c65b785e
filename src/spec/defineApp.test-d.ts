import { expectTypeOf } from 'vitest';
import { defineApp, type RowOf } from './defineApp.ts';

const base = {
  purpose: { name: 'T', summary: 's', users: ['u'] },
  screens: { list: { route: '/t', kind: 'list', title: 'T', entity: 'ticket', nav: ['agent'] } },
  calls: { declared: {} },
  constants: { maxTitle: { value: 10, label: 'x' } },
} as const;

const app = defineApp({
  ...base,
  entities: {
    ticket: {
      label: 'Ticket',
      fields: {
        title: { type: 'text', required: true },
        priority: { type: 'enum', values: ['low', 'high'] },
        status: { type: 'status', required: true },
        hours: { type: 'number' },
      },
    },
  },
  states: {
    ticket: {
      field: 'status',
      initial: 'open',
      states: { open: {}, done: { final: true } },
      transitions: { finish: { from: ['open'], to: 'done', roles: ['agent'], set: { hours: '1' } } },
    },
  },
  validation: { ticket: [{ kind: 'field', field: 'title', maxLength: 'maxTitle', error: 'E1' }] },
  roles: {
    roles: { agent: { label: 'Agent' } },
    permissions: { agent: { ticket: { read: true, update: { when: true, fields: ['title'] } } } },
  },
  errors: { E1: { message: 'bad', severity: 'error', field: 'ticket.title' } },
});

type T = RowOf<typeof app.entities.ticket>;
expectTypeOf<T['title']>().toEqualTypeOf<string>();
expectTypeOf<T['priority']>().toEqualTypeOf<'low' | 'high' | null>();

defineApp({
  ...base,
  entities: { ticket: { label: 'Ticket', fields: { title: { type: 'text' } } } },
  states: {
    ticket: {
      // @ts-expect-error unknown field
      field: 'titel',
      initial: 'open',
      states: { open: {} },
      transitions: {},
    },
  },
  validation: {},
  roles: { roles: { agent: { label: 'A' } }, permissions: {} },
  errors: {},
});

defineApp({
  ...base,
  entities: { ticket: { label: 'Ticket', fields: { title: { type: 'text' } } } },
  states: {
    ticket: {
      field: 'title',
      initial: 'open',
      states: { open: {} },
      // @ts-expect-error unknown state
      transitions: { x: { from: ['open'], to: 'closed', roles: ['agent'] } },
    },
  },
  validation: {},
  roles: { roles: { agent: { label: 'A' } }, permissions: {} },
  errors: {},
});

// The reference apps: row types follow their fields.
import type helpdesk from '../../examples/helpdesk/spec.ts';

type Ticket = RowOf<typeof helpdesk.entities.ticket>;
expectTypeOf<Ticket['id']>().toEqualTypeOf<string>();
expectTypeOf<Ticket['version']>().toEqualTypeOf<number>();
expectTypeOf<Ticket['priority']>().toEqualTypeOf<'low' | 'normal' | 'high' | 'urgent'>();
expectTypeOf<Ticket['title']>().toEqualTypeOf<string>();
// @ts-expect-error no such field on a ticket
type _Missing = Ticket['asignee'];

// Validation rules name fields of their entity and catalogue codes.
defineApp({
  ...base,
  entities: { ticket: { label: 'Ticket', fields: { title: { type: 'text' } } } },
  states: {},
  // @ts-expect-error `titel` is not a field of ticket
  validation: { ticket: [{ kind: 'field', field: 'titel', maxLength: 5, error: 'E1' }] },
  roles: { roles: { agent: { label: 'A' } }, permissions: {} },
  errors: { E1: { message: 'x', severity: 'error' } },
});

// Update permissions list fields of the entity.
defineApp({
  ...base,
  entities: { ticket: { label: 'Ticket', fields: { title: { type: 'text' } } } },
  states: {},
  validation: {},
  roles: {
    roles: { agent: { label: 'A' } },
    // @ts-expect-error `body` is not a field of ticket
    permissions: { agent: { ticket: { update: { when: true, fields: ['body'] } } } },
  },
  errors: {},
});

// A create that says why names a code of the catalogue.
const ticketOnly = {
  ...base,
  entities: { ticket: { label: 'Ticket', fields: { title: { type: 'text' } } } },
  states: {},
  validation: {},
} as const;
defineApp({
  ...ticketOnly,
  roles: {
    roles: { agent: { label: 'A' } },
    permissions: { agent: { ticket: { create: { when: true, becomes: "title != 'x'", error: 'E1' } } } },
  },
  errors: { E1: { message: 'bad', severity: 'error' } },
});
defineApp({
  ...ticketOnly,
  roles: {
    roles: { agent: { label: 'A' } },
    // @ts-expect-error `E2` is not in the catalogue
    permissions: { agent: { ticket: { create: { when: true, becomes: "title != 'x'", error: 'E2' } } } },
  },
  errors: { E1: { message: 'bad', severity: 'error' } },
});

// A call's fill names only its payload's keys, and lists come from the app's entities.
const callBase = {
  description: 'd',
  method: 'POST',
  path: '/x',
  service: 'x',
  payload: { to: 'email', 'note?': 'string', lines: [{ amount: 'number' }] },
  response: {},
  roles: ['agent'],
  error: 'E1',
} as const;
defineApp({
  ...base,
  calls: {
    declared: {
      mail: { ...callBase, fill: { to: 'owner.email', note: 'Hi {title}', lines: { rows: 'ticket' } } },
    },
  },
  entities: { ticket: { label: 'Ticket', fields: { title: { type: 'text' } } } },
  states: {},
  validation: {},
  roles: { roles: { agent: { label: 'A' } }, permissions: {} },
  errors: { E1: { message: 'bad', severity: 'error' } },
});
defineApp({
  ...base,
  calls: {
    declared: {
      mail: {
        ...callBase,
        // @ts-expect-error `bcc` is not a key of the payload
        fill: { bcc: 'owner.email' },
      },
    },
  },
  entities: { ticket: { label: 'Ticket', fields: { title: { type: 'text' } } } },
  states: {},
  validation: {},
  roles: { roles: { agent: { label: 'A' } }, permissions: {} },
  errors: { E1: { message: 'bad', severity: 'error' } },
});
defineApp({
  ...base,
  calls: {
    declared: {
      // @ts-expect-error `lien` is not an entity
      mail: { ...callBase, fill: { lines: { rows: 'lien' } } },
    },
  },
  entities: { ticket: { label: 'Ticket', fields: { title: { type: 'text' } } } },
  states: {},
  validation: {},
  roles: { roles: { agent: { label: 'A' } }, permissions: {} },
  errors: { E1: { message: 'bad', severity: 'error' } },
});
