import type { Change, LivePort } from '../types.ts';

type Listener = { entity: string; id: string | undefined; fn: (change: Change) => void };

export interface Live {
  port: LivePort;
  /** Tell this tab's listeners and (through BroadcastChannel) every other tab's. Call after commit. */
  emit(change: Change): void;
  close(): void;
}

/**
 * Live changes for the embedded backend: in-process listeners, and other tabs of the same app via
 * BroadcastChannel when the platform has one (browsers, workers, Node 18+).
 *
 * @example
 * const live = createLive('ninefold-helpdesk');
 * live.port.subscribe({ entity: 'ticket' }, (c) => refetch(c.id));
 */
export function createLive(channelName: string): Live {
  const listeners = new Set<Listener>();
  const deliver = (change: Change) => {
    for (const l of [...listeners]) {
      if (l.entity !== change.entity || (l.id !== undefined && l.id !== change.id)) continue;
      try {
        // A deleted row can no longer be checked against the listener's read rules: a listener of
        // the whole table learns that something was deleted (`*`), never which row (issue 11,
        // finding 2). One that named the row already knew its id.
        l.fn(change.kind === 'delete' && l.id === undefined ? { ...change, id: '*' } : change);
      } catch {
        // A failing listener must not stop the others (or the write that triggered it).
      }
    }
  };
  const Channel = (globalThis as { BroadcastChannel?: typeof BroadcastChannel }).BroadcastChannel;
  const channel = Channel ? new Channel(channelName) : undefined;
  if (channel) {
    channel.onmessage = (event: MessageEvent<Change>) => {
      const c = event.data;
      if (c && typeof c.entity === 'string' && typeof c.id === 'string') deliver(c);
    };
    // Node: do not keep the process alive just for this channel.
    (channel as unknown as { unref?: () => void }).unref?.();
  }
  return {
    port: {
      subscribe(target, fn) {
        const l: Listener = { entity: target.entity, id: target.id, fn };
        listeners.add(l);
        return () => {
          listeners.delete(l);
        };
      },
    },
    emit(change) {
      deliver(change);
      channel?.postMessage(change);
    },
    close() {
      listeners.clear();
      channel?.close();
    },
  };
}
