import type { Transaction } from '@electric-sql/pglite';
import type { EmbeddedBackend } from '../createEmbeddedBackend.ts';
import { type Answer, type Request, toWireError } from './protocol.ts';

/**
 * The leader's side of owner access (`asOwner` in the tab, ownerFacade.ts): `owner-begin` opens an
 * owner transaction held open across messages, `owner-query` runs a statement in it, `owner-end`
 * commits or rolls it back.
 */
export function ownerSteps(backend: () => EmbeddedBackend | undefined) {
  const owned = new Map<number, { tx: Transaction; end: (commit: boolean) => Promise<void> }>();
  let nextTx = 1;
  const answer = (value: unknown): Answer => ({ ok: true, value, auth: [], changes: [] });

  const begin = async (): Promise<number> => {
    const id = nextTx++;
    await new Promise<void>((started, failed) => {
      let end: (commit: boolean) => void = () => undefined;
      const done = (backend() as EmbeddedBackend).asOwner(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            end = (c) => (c ? commit() : rollback(new Error('rolled back')));
            owned.set(id, {
              tx,
              end: async (c) => {
                end(c);
                await done;
              },
            });
            started();
          }),
      );
      done.catch((e) => failed(e));
    });
    return id;
  };

  return async function ownerStep(r: Exclude<Request, { kind: 'call' | 'respec' }>): Promise<Answer> {
    try {
      if (r.kind === 'owner-begin') return answer(await begin());
      const held = owned.get(r.tx);
      if (!held) throw new Error('no such owner transaction');
      if (r.kind === 'owner-query')
        return answer(r.exec ? await held.tx.exec(r.sql) : await held.tx.query(r.sql, r.params));
      owned.delete(r.tx);
      await held.end(r.commit).catch((e) => {
        if (r.commit) throw e;
      });
      return answer(null);
    } catch (e) {
      return { ok: false, error: toWireError(e), auth: [], changes: [] };
    }
  };
}
