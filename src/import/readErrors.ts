import type { RootContent } from 'mdast';
import type { AppSpec, ErrorSpec, Severity } from '../spec/types.ts';
import type { ImportContext } from './importContext.ts';
import { type Cell, readTable, tableHeaders, tablesIn } from './markdownTree.ts';
import { entityNames, fieldNames } from './specNames.ts';

const COLUMNS = {
  code: ['Code', 'Error'],
  message: ['Message'],
  severity: ['Severity', 'Level'],
  field: ['Field'],
  params: ['Parameters', 'Params'],
};

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/**
 * Section 8: the catalogue table (the table of built-in errors, which has no Message column,
 * is for readers only). A field is `Label (Entity label)` as `doc` prints it, or `entity.field`.
 */
export function readErrors(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  const table = tablesIn(body).find((t) => tableHeaders(t).includes('message'));
  for (const row of table ? readTable(table, ctx.source, COLUMNS, ctx) : []) {
    const codeCell = row.cell('code');
    const code = codeCell.codes[0] ?? codeCell.text;
    const path = `errors.${code}`;
    ctx.at(path, row.pos);
    if (code === '') {
      ctx.problem(
        'doc/missing',
        row.pos,
        'errors',
        'an error without a code',
        'write the code in backticks, e.g. `TITLE_TOO_LONG`',
      );
      continue;
    }
    if (Object.hasOwn(spec.errors, code)) {
      ctx.problem('doc/duplicate', row.pos, path, `the error "${code}" is listed twice`);
      continue;
    }
    const message = row.cell('message');
    ctx.at(`${path}.message`, message.pos);
    const e: ErrorSpec = { message: message.raw, severity: 'error' };
    const sevCell = row.cell('severity');
    const sev = sevCell.text.toLowerCase();
    if (sev !== '') {
      const s = SEVERITIES.find((x) => sev.startsWith(x) || (x === 'info' && sev.startsWith('information')));
      if (s) e.severity = s;
      else
        ctx.problem(
          'doc/invalid-value',
          sevCell.pos,
          `${path}.severity`,
          `unknown severity "${sevCell.text}"`,
          'one of: error, warning, info',
        );
    }
    const fieldCell = row.cell('field');
    if (fieldCell.text !== '' && fieldCell.text !== '-') {
      ctx.at(`${path}.field`, fieldCell.pos);
      const field = fieldPath(
        ctx,
        spec,
        fieldCell.codes[0] ?? fieldCell.text,
        fieldCell.pos,
        `${path}.field`,
      );
      if (field) e.field = field;
    }
    if (row.has('params')) readParams(ctx, row.cell('params'), `${path}.params`, e);
    spec.errors[code] = e;
  }
}

/** `Approved by (manager) (Claim)` → `claim.approvedBy`; `claim.approvedBy` as it is. */
function fieldPath(
  ctx: ImportContext,
  spec: AppSpec,
  text: string,
  pos: Parameters<ImportContext['problem']>[1],
  path: string,
): string | undefined {
  const t = text.trim();
  const open = t.lastIndexOf('(');
  let entityText: string;
  let fieldText: string;
  if (t.endsWith(')') && open > 0) {
    entityText = t.slice(open + 1, -1);
    fieldText = t.slice(0, open);
  } else if (t.includes('.')) {
    [entityText = '', fieldText = ''] = t.split('.');
  } else {
    ctx.problem(
      'doc/invalid-value',
      pos,
      path,
      `cannot tell which entity "${t}" belongs to`,
      'write `Field label (Entity label)` or `entity.field`',
    );
    return undefined;
  }
  const entity = ctx.resolve(entityNames(spec), entityText, 'entity', pos, path);
  if (!entity) return undefined;
  const field = ctx.resolve(fieldNames(spec, entity, false), fieldText, 'field', pos, path);
  return field ? `${entity}.${field}` : undefined;
}

/** `` `logged = sum`, `day = date` `` → `params: { logged: 'sum', day: 'date' }`; a part of another form is an error. */
function readParams(ctx: ImportContext, cell: Cell, path: string, e: ErrorSpec): void {
  const text = cell.raw.trim();
  if (text === '' || text === '-') return;
  ctx.at(path, cell.pos);
  const params: Record<string, string> = {};
  for (const part of text.split(',')) {
    const m = /^\s*`?\s*(\w+)\s*=\s*([\w.]+)\s*`?\s*$/.exec(part);
    if (!m) {
      ctx.problem(
        'doc/invalid-value',
        cell.pos,
        path,
        `cannot read the parameter "${part.trim()}"`,
        'write each as `name = field`, `name = other.field`, `name = sum` or `name = count`, separated by commas',
      );
      continue;
    }
    params[m[1]!] = m[2]!;
  }
  if (Object.keys(params).length > 0) e.params = params;
}
