import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import type { Change, LivePort } from '../types.ts';
import { modelOf } from './entityModel.ts';
import type { SupabaseContext } from './supabaseContext.ts';

type Record_ = Record<string, unknown>;

function idOf(r: unknown): string | undefined {
  const id = typeof r === 'object' && r !== null ? (r as Record_).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Live changes through Supabase Realtime (`postgres_changes`). Realtime checks the subscriber's
 * read policy for every row it sends, so a listener only hears about rows it may read. The
 * table must be in the `supabase_realtime` publication (the migration adds `live` entities).
 *
 * Realtime cannot filter DELETE events, and a deleted row carries only its primary key; the
 * one-row subscription therefore listens to the table's deletes and matches the id here.
 */
export function createLivePort(ctx: SupabaseContext): LivePort {
  let next = 0;
  return {
    subscribe(target, listener) {
      const model = modelOf(ctx.models, target.entity);
      next += 1;
      const channel = ctx.client.channel(`ninefold:${model.table}:${target.id ?? '*'}:${next}`);
      const deliver = (payload: RealtimePostgresChangesPayload<Record_>) => {
        const id = idOf(payload.new) ?? idOf(payload.old);
        if (!id || (target.id !== undefined && id !== target.id)) return;
        const kind: Change['kind'] =
          payload.eventType === 'INSERT' ? 'insert' : payload.eventType === 'UPDATE' ? 'update' : 'delete';
        // Realtime sends every subscriber of the table the key of a deleted row, readable or not:
        // a table listener is told only that something was deleted (`*`; docs/security.md).
        listener({
          entity: target.entity,
          id: kind === 'delete' && target.id === undefined ? '*' : id,
          kind,
        });
      };
      const base = { schema: 'public', table: model.table } as const;
      if (target.id === undefined) {
        channel.on('postgres_changes', { ...base, event: '*' }, deliver);
      } else {
        const filter = `id=eq.${target.id}`;
        channel.on('postgres_changes', { ...base, event: 'INSERT', filter }, deliver);
        channel.on('postgres_changes', { ...base, event: 'UPDATE', filter }, deliver);
        channel.on('postgres_changes', { ...base, event: 'DELETE' }, deliver);
      }
      channel.subscribe();
      let open = true;
      return () => {
        if (!open) return;
        open = false;
        void ctx.client.removeChannel(channel);
      };
    },
  };
}
