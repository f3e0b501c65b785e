/**
 * PGlite's multi-tab worker sends a failed call back to the tab as `{ message }` only: the SQLSTATE,
 * detail, constraint, table and column of a Postgres error (and the name of an IndexedDB error such
 * as `QuotaExceededError`) are lost, and every error the catalogue maps would become `INTERNAL`.
 * The worker therefore packs those fields into the message (`encodeWorkerError`) and the tab
 * unpacks them (`decodeWorkerError`) before `mapDatabaseError` reads them.
 */

const PREFIX = 'ninefold-worker-error:';
const FIELDS = [
  'name',
  'message',
  'code',
  'severity',
  'detail',
  'hint',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'where',
] as const;

/**
 * The worker side: an Error whose message carries the fields of `error` (only the message crosses).
 *
 * @example
 * try { return await run(); } catch (e) { throw encodeWorkerError(e); }
 */
export function encodeWorkerError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  if (String((error as { message?: unknown }).message).startsWith(PREFIX)) return error;
  const source = error as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const f of FIELDS) {
    const v = source[f];
    if (typeof v === 'string' && v !== '') fields[f] = v;
  }
  if (!fields.code && (!fields.name || fields.name === 'Error')) return error;
  return new Error(`${PREFIX}${JSON.stringify(fields)}`);
}

/**
 * The tab side: the error the worker encoded, with its fields back; anything else unchanged.
 *
 * @example
 * decodeWorkerError(new Error('ninefold-worker-error:{"code":"42501","message":"denied"}')).code; // '42501'
 */
export function decodeWorkerError(error: unknown): unknown {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== 'string' || !message.startsWith(PREFIX)) return error;
  try {
    const fields = JSON.parse(message.slice(PREFIX.length)) as Record<string, unknown>;
    const decoded = new Error(typeof fields.message === 'string' ? fields.message : 'database error');
    for (const f of FIELDS)
      if (typeof fields[f] === 'string' && f !== 'message') Object.assign(decoded, { [f]: fields[f] });
    return decoded;
  } catch {
    return error;
  }
}

/**
 * Rethrows failures of the named async methods of `target` through `map` (in place).
 *
 * @example
 * mapRejections(pg, ['execProtocolStream'], encodeWorkerError);
 */
export function mapRejections<T extends object>(
  target: T,
  methods: readonly string[],
  map: (e: unknown) => unknown,
): T {
  const t = target as Record<string, unknown>;
  for (const name of methods) {
    const original = t[name];
    if (typeof original !== 'function') continue;
    t[name] = async function (this: unknown, ...args: unknown[]) {
      try {
        return await (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      } catch (e) {
        throw map(e);
      }
    };
  }
  return target;
}
