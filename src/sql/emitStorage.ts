import type { AppModel } from '../model/index.ts';
import { bucketName, storagePolicyName } from '../model/storageNames.ts';
import type { Typed } from '../rules/ast.ts';
import { grantSql } from './emitPolicies.ts';
import { quoteIdent, quoteLiteral, sqlComment } from './quote.ts';
import { type Action, grantsFor, tableRef } from './specModel.ts';
import { typedOf } from './typedRule.ts';

/** The file row inside the storage policies' subqueries (rule aliases start with `_` too, but are numbered). */
const FILE_ROW = '_f';

/** A number a rule computes from literals and constants alone, or undefined. */
function constantNumber(t: Typed): number | undefined {
  if (t.kind === 'literal' || t.kind === 'const') return typeof t.value === 'number' ? t.value : undefined;
  if (t.kind === 'neg') {
    const v = constantNumber(t.operand);
    return v === undefined ? undefined : -v;
  }
  if (t.kind !== 'binary') return undefined;
  const l = constantNumber(t.left);
  const r = constantNumber(t.right);
  if (l === undefined || r === undefined) return undefined;
  switch (t.op) {
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      return r === 0 ? undefined : l / r;
    default:
      return undefined;
  }
}

const isSize = (t: Typed): boolean =>
  t.kind === 'field' && t.scope === 'row' && t.path.length === 1 && t.path[0] === 'size';

/** Upper bounds on `size` a rule states at its top level (`size <= E`, `E > size`, `… and …`). */
function sizeBounds(t: Typed): number[] {
  if (t.kind !== 'binary') return [];
  if (t.op === 'and') return [...sizeBounds(t.left), ...sizeBounds(t.right)];
  const flipped: Record<string, string> = { '>=': '<=', '>': '<' };
  const [op, bound] = isSize(t.left)
    ? [t.op, t.right]
    : isSize(t.right) && flipped[t.op]
      ? [flipped[t.op], t.left]
      : [undefined, undefined];
  if (op !== '<=' && op !== '<') return [];
  const v = bound === undefined ? undefined : constantNumber(bound);
  if (v === undefined || !Number.isFinite(v)) return [];
  // Sizes are whole bytes: `size < 10.5` allows 10, `size <= 10.5` allows 10.
  return [op === '<' ? Math.ceil(v) - 1 : Math.floor(v)];
}

/**
 * The largest file a files entity accepts, in bytes, as its unconditional validation rules say
 * (`size <= maxAttachmentMb * 1048576`, or a field rule `{ field: 'size', max }`); undefined when no
 * rule bounds the size by constants alone. Storage enforces it too, so an oversized upload is
 * refused before its bytes are stored.
 *
 * @example
 * fileSizeLimit(helpdesk, 'attachment'); // 10485760
 */
export function fileSizeLimit(model: AppModel, entity: string): number | undefined {
  const bounds: number[] = [];
  for (const node of model.tables.get(entity)?.rules ?? []) {
    if (node.kind === 'field') {
      const v = node.spec;
      if (v.field !== 'size' || v.max === undefined) continue;
      const max = typeof v.max === 'number' ? v.max : model.constants.get(v.max)?.value;
      if (typeof max === 'number' && Number.isFinite(max)) bounds.push(Math.floor(max));
      continue;
    }
    if (node.when !== undefined) continue;
    if (node.rule.typed) bounds.push(...sizeBounds(typedOf(node.rule)));
  }
  return bounds.length === 0 ? undefined : Math.max(0, Math.min(...bounds));
}

/** The caller may do `action` on the file row `_f`: the disjunction of that action's grants. */
function allowedOnRow(model: AppModel, entity: string, action: Action): string | undefined {
  const grants = grantsFor(model, entity).filter((g) => g.action === action);
  if (grants.length === 0) return undefined;
  return grants.map((g) => grantSql(model, g, FILE_ROW)).join(' or ');
}

/**
 * Supabase Storage for a files entity (supabase target): a private bucket named like the table, and
 * policies on `storage.objects` that reach an object only through its row. Read needs a row with
 * `storage_path = name` that the caller can see (the subquery runs under the table's RLS); create
 * also needs the table's create rule to hold on that row (the adapter writes the row first, so the
 * table's checks decide before a byte is stored); delete needs the table's delete rule. Rows can
 * only point into their own folder, at an object no other row uses (`emitFileChecks`).
 *
 * @example
 * emitStorage(helpdesk, 'attachment');
 * // insert into storage.buckets (id, name, public, file_size_limit) values ('attachment', …) …
 * // create policy ninefold__attachment__read on storage.objects … for select to authenticated …
 */
export function emitStorage(model: AppModel, entity: string): string {
  if (!model.tables.get(entity)?.files) return '';
  const bucket = bucketName(entity);
  const limit = fileSizeLimit(model, entity);
  const columns = ['id', 'name', 'public', ...(limit === undefined ? [] : ['file_size_limit'])];
  const values = [
    quoteLiteral(bucket),
    quoteLiteral(bucket),
    'false',
    ...(limit === undefined ? [] : [String(limit)]),
  ];
  const out = [
    sqlComment(
      `Storage of ${entity}: objects "<row id>/<name>" in bucket "${bucket}", reachable only through their rows.`,
    ),
    `insert into storage.buckets (${columns.join(', ')}) values (${values.join(', ')}) on conflict (id) do nothing;`,
  ];
  // The object must be younger than its row (the row's created_at is set by the insert trigger): a
  // new row cannot adopt an object left behind by a deleted row that once had the same id.
  const rowExists = (extra: string | undefined) =>
    `exists (select 1 from ${tableRef(model, entity)} ${FILE_ROW} where ${FILE_ROW}.storage_path = storage.objects.name and storage.objects.created_at >= ${FILE_ROW}.created_at${extra === undefined ? '' : ` and (${extra})`})`;
  const inBucket = `storage.objects.bucket_id = ${quoteLiteral(bucket)}`;
  const policies: { action: 'read' | 'create' | 'delete'; command: string; clause: string | undefined }[] = [
    { action: 'read', command: 'select', clause: `using (${inBucket} and ${rowExists(undefined)})` },
    {
      action: 'create',
      command: 'insert',
      clause: ((c) => (c === undefined ? undefined : `with check (${inBucket} and ${rowExists(c)})`))(
        allowedOnRow(model, entity, 'create'),
      ),
    },
    {
      action: 'delete',
      command: 'delete',
      clause: ((c) => (c === undefined ? undefined : `using (${inBucket} and ${rowExists(c)})`))(
        allowedOnRow(model, entity, 'delete'),
      ),
    },
  ];
  for (const p of policies) {
    const name = quoteIdent(storagePolicyName(bucket, p.action));
    out.push(`drop policy if exists ${name} on storage.objects;`);
    // No grant for the action: no policy, so RLS refuses it.
    if (p.clause !== undefined)
      out.push(
        `create policy ${name} on storage.objects as permissive for ${p.command} to authenticated ${p.clause};`,
      );
  }
  return out.join('\n');
}
