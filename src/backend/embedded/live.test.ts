import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '../types.ts';
import { createLive, type Live } from './live.ts';

describe('embedded live changes', () => {
  const opened: Live[] = [];
  afterEach(() => {
    for (const l of opened.splice(0)) l.close();
  });
  const open = (name: string) => {
    const l = createLive(`ninefold-live-test-${name}-${Math.random()}`);
    opened.push(l);
    return l;
  };

  it('finding 2: a delete reaches a table listener without the row’s id; a listener of that row gets it', () => {
    const live = open('delete');
    const table: Change[] = [];
    const row: Change[] = [];
    const other: Change[] = [];
    live.port.subscribe({ entity: 'ticket' }, (c) => table.push(c));
    live.port.subscribe({ entity: 'ticket', id: 'a' }, (c) => row.push(c));
    live.port.subscribe({ entity: 'ticket', id: 'b' }, (c) => other.push(c));
    live.emit({ entity: 'ticket', id: 'a', kind: 'update' });
    live.emit({ entity: 'ticket', id: 'a', kind: 'delete' });
    live.emit({ entity: 'comment', id: 'c', kind: 'delete' });
    expect(table).toEqual([
      { entity: 'ticket', id: 'a', kind: 'update' },
      { entity: 'ticket', id: '*', kind: 'delete' },
    ]);
    expect(row).toEqual([
      { entity: 'ticket', id: 'a', kind: 'update' },
      { entity: 'ticket', id: 'a', kind: 'delete' },
    ]);
    expect(other).toEqual([]);
  });

  it('finding 2: another tab’s table listener hears of a delete without the id too', async () => {
    const name = `ninefold-live-test-tabs-${Math.random()}`;
    const a = createLive(name);
    const b = createLive(name);
    opened.push(a, b);
    const heard: Change[] = [];
    b.port.subscribe({ entity: 'ticket' }, (c) => heard.push(c));
    a.emit({ entity: 'ticket', id: 'x', kind: 'delete' });
    await new Promise((r) => setTimeout(r, 50));
    expect(heard).toEqual([{ entity: 'ticket', id: '*', kind: 'delete' }]);
  });
});
