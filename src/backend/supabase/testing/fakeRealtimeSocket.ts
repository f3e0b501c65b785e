/** A frame the client sent: Phoenix v2 serialisation `[join_ref, ref, topic, event, payload]`. */
export interface PhxFrame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

/**
 * A WebSocket stand-in for Realtime tests: no server is reachable. It opens at once, records the
 * frames the client sends, answers joins with the server's binding ids the way Realtime does, and
 * lets a test push `postgres_changes` messages.
 */
export class FakeRealtimeSocket {
  static instances: FakeRealtimeSocket[] = [];
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;

  readonly url: string;
  readyState = 0;
  binaryType = 'arraybuffer';
  sent: PhxFrame[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  /** Server binding id per `topic` + index of the client's postgres_changes binding. */
  private nextBinding = 100;
  bindings = new Map<string, { id: number; event: string; table: string; filter?: string }[]>();

  constructor(url: string | URL) {
    this.url = String(url);
    FakeRealtimeSocket.instances.push(this);
    setTimeout(() => {
      this.readyState = 1;
      this.onopen?.({});
    }, 0);
  }

  send(data: string): void {
    const [joinRef, ref, topic, event, payload] = JSON.parse(data) as [
      string | null,
      string | null,
      string,
      string,
      Record<string, unknown>,
    ];
    const frame = { joinRef, ref, topic, event, payload };
    this.sent.push(frame);
    if (event === 'phx_join') {
      const config = (payload.config ?? {}) as {
        postgres_changes?: { event: string; table: string; filter?: string }[];
      };
      const changes = (config.postgres_changes ?? []).map((c) => ({ ...c, id: this.nextBinding++ }));
      this.bindings.set(topic, changes);
      this.reply(frame, { postgres_changes: changes.map((c) => ({ ...c, schema: 'public' })) });
    } else if (event === 'phx_leave' || event === 'heartbeat') {
      this.reply(frame, {});
    }
  }

  private reply(frame: PhxFrame, response: Record<string, unknown>): void {
    setTimeout(() => {
      this.onmessage?.({
        data: JSON.stringify([
          frame.joinRef,
          frame.ref,
          frame.topic,
          'phx_reply',
          { status: 'ok', response },
        ]),
      });
    }, 0);
  }

  /** Pushes a database change to every binding of `topic` matching the event type. */
  pushChange(
    topic: string,
    type: 'INSERT' | 'UPDATE' | 'DELETE',
    table: string,
    record: Record<string, unknown>,
    oldRecord: Record<string, unknown> = {},
  ): void {
    const ids = (this.bindings.get(topic) ?? [])
      .filter((b) => b.event === '*' || b.event === type)
      .map((b) => b.id);
    const data = {
      schema: 'public',
      table,
      commit_timestamp: '2026-01-01T00:00:00Z',
      type,
      record,
      old_record: oldRecord,
      columns: [{ name: 'id', type: 'uuid' }],
      errors: null,
    };
    this.onmessage?.({ data: JSON.stringify([null, null, topic, 'postgres_changes', { ids, data }]) });
  }

  close(code = 1000, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}
