import { expectTypeOf } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import type { RowOf } from '../spec/defineApp.ts';
import { typedBackend } from './typedBackend.ts';
import {
  type Backend,
  BackendError,
  type BackendErrorOf,
  type ErrorCodeOf,
  isBackendErrorOf,
} from './types.ts';

type Helpdesk = typeof helpdesk;
type Ticket = RowOf<Helpdesk, 'ticket'>;

// Rows per entity, from the spec: enum values written as { value, color } keep their literals.
expectTypeOf<Ticket['priority']>().toEqualTypeOf<'low' | 'normal' | 'high' | 'urgent'>();
expectTypeOf<Ticket['title']>().toEqualTypeOf<string>();
expectTypeOf<Ticket['id']>().toEqualTypeOf<string>();
expectTypeOf<RowOf<Helpdesk['entities']['ticket']>>().toEqualTypeOf<Ticket>();
// @ts-expect-error: not an entity of the helpdesk
type _Nope = RowOf<Helpdesk, 'invoice'>;

declare const raw: Backend;
const backend = typedBackend(helpdesk, raw);
expectTypeOf(backend.data.get('ticket', 'x')).resolves.toEqualTypeOf<Ticket>();
expectTypeOf(backend.data.list('comment'))
  .resolves.toHaveProperty('rows')
  .toEqualTypeOf<RowOf<Helpdesk, 'comment'>[]>();
// @ts-expect-error: entity names are checked
backend.data.get('tickets', 'x');
// @ts-expect-error: transition names are checked per entity
backend.data.transition('ticket', 'x', 'explode');
// @ts-expect-error: field values are checked
backend.data.create('ticket', { priority: 'critical' });

// Errors: a union keyed by `code`, built-in codes plus the spec's catalogue.
expectTypeOf<'TITLE_TOO_SHORT'>().toExtend<ErrorCodeOf<Helpdesk>>();
expectTypeOf<'NOT_FOUND'>().toExtend<ErrorCodeOf<Helpdesk>>();
expectTypeOf<'NO_SUCH_CODE'>().not.toExtend<ErrorCodeOf<Helpdesk>>();
declare const e: unknown;
if (isBackendErrorOf(helpdesk, e)) {
  expectTypeOf(e).toEqualTypeOf<BackendErrorOf<Helpdesk>>();
  if (e.code === 'TITLE_TOO_SHORT') expectTypeOf(e).toEqualTypeOf<BackendError<'TITLE_TOO_SHORT'>>();
}
expectTypeOf(new BackendError('CONFLICT').code).toEqualTypeOf<'CONFLICT'>();
