import { createClient } from '@supabase/supabase-js';
import { describe, expectTypeOf, it } from 'vitest';
import type { Database, Enums, Tables, TablesInsert } from './__golden__/helpdesk.types.ts';

// The printed types used the way a hand-written client uses `supabase gen types` output.
const supabase = createClient<Database>('https://example.supabase.co', 'anon-key');

describe('the helpdesk database types with supabase-js', () => {
  it('types table rows, inserts and enumerations', async () => {
    const { data } = await supabase
      .from('ticket')
      .select('id, title, priority, assignee')
      .eq('status', 'open');
    expectTypeOf(data).toEqualTypeOf<
      | {
          id: string;
          title: string;
          priority: 'low' | 'normal' | 'high' | 'urgent';
          assignee: string | null;
        }[]
      | null
    >();
    expectTypeOf<Tables<'ticket'>['status']>().toEqualTypeOf<Enums<'ticket_status'>>();
    // @ts-expect-error a ticket needs a title
    await supabase.from('ticket').insert({ description: 'No title given here at all.' });
    const insert: TablesInsert<'ticket'> = {
      title: 'Printer on fire',
      description: 'It is on fire, really.',
    };
    await supabase.from('ticket').insert(insert);
    // @ts-expect-error no such column
    await supabase.from('ticket').select('id').eq('nonexistent', 1);
  });

  it('types the transition functions', async () => {
    const { data } = await supabase.rpc('ticket_solve', {
      p_id: 'x',
      p_input: { resolution: 'Rebooted it.' },
    });
    expectTypeOf(data).toEqualTypeOf<Tables<'ticket'> | null>();
    // @ts-expect-error a transition needs the row id
    await supabase.rpc('ticket_solve', { p_input: {} });
    // @ts-expect-error no such transition
    await supabase.rpc('ticket_fly', { p_id: 'x' });
  });
});
