import { expectTypeOf } from 'vitest';
import helpdesk from '../../examples/helpdesk/spec.ts';
import type { BackendError } from '../backend/types.ts';
import type { RowOf } from '../spec/defineApp.ts';
import { appHooks } from './appHooks.ts';

const { useRow, useList, useCreate } = appHooks(helpdesk);

// Hooks run inside a component.
export function Probe(): null {
  const row = useRow('ticket', 'x');
  expectTypeOf(row.data).toEqualTypeOf<RowOf<typeof helpdesk, 'ticket'> | undefined>();
  const list = useList('comment');
  expectTypeOf(list.data?.rows).toEqualTypeOf<RowOf<typeof helpdesk, 'comment'>[] | undefined>();
  if (row.error?.code === 'TITLE_TOO_SHORT')
    expectTypeOf(row.error).toEqualTypeOf<BackendError<'TITLE_TOO_SHORT'>>();
  const create = useCreate('ticket');
  expectTypeOf(create.mutateAsync).parameter(0).toHaveProperty('priority');
  // @ts-expect-error: entity names are checked
  useRow('tickets', 'x');
  // @ts-expect-error: values are checked against the row type
  create.mutate({ priority: 'critical' });
  return null;
}
