import type { AuthEvent, Change, Session } from '../../types.ts';
import type { BroadcastChange } from './protocol.ts';

/**
 * The tab's live and auth listeners: changes this tab caused come with the answers (`deliver`),
 * the other tabs' on the app's change channel (those this tab caused, tagged `me`, are skipped).
 */
export function tabListeners(changesName: string, me: string) {
  const listeners = new Set<{ entity: string; id: string | undefined; fn: (c: Change) => void }>();
  const auth = new Set<(e: AuthEvent, s: Session | null) => void>();
  const deliver = (change: Change) => {
    for (const l of [...listeners]) {
      if (l.entity !== change.entity || (l.id !== undefined && l.id !== change.id)) continue;
      try {
        l.fn(change);
      } catch {
        // A failing listener must not stop the others.
      }
    }
  };
  const tellAuth = (event: AuthEvent, session: Session | null) => {
    for (const l of [...auth]) {
      try {
        l(event, session);
      } catch {
        // Listeners belong to the UI; their failures are not the backend's.
      }
    }
  };
  const channel = new BroadcastChannel(changesName);
  channel.onmessage = (event: MessageEvent<BroadcastChange>) => {
    const { origin, ...change } = event.data ?? ({} as BroadcastChange);
    if (origin === me || typeof change.entity !== 'string' || typeof change.id !== 'string') return;
    deliver(change);
  };
  return {
    deliver,
    tellAuth,
    onAuth(listener: (e: AuthEvent, s: Session | null) => void) {
      auth.add(listener);
      return () => {
        auth.delete(listener);
      };
    },
    subscribe(entity: string, id: string | undefined, fn: (c: Change) => void) {
      const l = { entity, id, fn };
      listeners.add(l);
      return () => {
        listeners.delete(l);
      };
    },
    close() {
      listeners.clear();
      auth.clear();
      channel.close();
    },
  };
}
