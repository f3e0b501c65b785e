import type { RootContent } from 'mdast';
import type { AppSpec, ConstantSpec, ConstantValue, TemporalConstantType } from '../spec/types.ts';
import type { ImportContext } from './importContext.ts';
import { type Cell, readTable, tablesIn } from './markdownTree.ts';

const COLUMNS = { name: ['Name', 'Constant', 'Key'], label: ['Label'], value: ['Value'], unit: ['Unit'] };

/** Section 9: the constants table. Values are typed as `doc` writes them (see constantValueCell). */
export function readConstants(ctx: ImportContext, body: readonly RootContent[], spec: AppSpec): void {
  const table = tablesIn(body)[0];
  for (const row of table ? readTable(table, ctx.source, COLUMNS, ctx) : []) {
    const nameCell = row.cell('name');
    const name = nameCell.codes[0] ?? nameCell.text;
    const path = `constants.${name}`;
    ctx.at(path, row.pos);
    if (name === '') {
      ctx.problem('doc/missing', row.pos, 'constants', 'a constant without a name');
      continue;
    }
    if (Object.hasOwn(spec.constants, name)) {
      ctx.problem('doc/duplicate', row.pos, path, `the constant "${name}" is listed twice`);
      continue;
    }
    const valueCell = row.cell('value');
    ctx.at(`${path}.value`, valueCell.pos);
    const unitText = row.cell('unit').raw.trim().toLowerCase();
    // The app's time zone: unit "time zone", the IANA name in code (`Europe/Berlin`).
    if (unitText === 'time zone' || unitText === 'timezone') {
      const zone = valueCell.codes[0] ?? valueCell.text.trim();
      spec.constants[name] = { type: 'timezone', value: zone, label: row.cell('label').raw || name };
      continue;
    }
    const value = constantValue(ctx, valueCell, `${path}.value`);
    if (value === undefined) continue;
    const c: ConstantSpec = { value, label: row.cell('label').raw || name };
    // A point or length of time is printed as words with the exact value in code: `… (`P3D`)`.
    const type = typeof value === 'string' && valueCell.codes.length > 0 ? temporalType(value) : undefined;
    if (type) c.type = type;
    const unit = row.cell('unit').raw;
    if (unit !== '' && unit !== type) c.unit = unit;
    spec.constants[name] = c;
  }
}

/** `P3D`/`PT2H` → duration, `2027-06-30T18:00:00Z` → datetime, `2027-06-30` → date. */
function temporalType(value: string): TemporalConstantType | undefined {
  if (/^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/.test(value))
    return 'duration';
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) return 'datetime';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'date';
  return undefined;
}

function constantValue(ctx: ImportContext, cell: Cell, path: string): ConstantValue | undefined {
  const raw = cell.raw;
  if (raw === '') {
    ctx.problem('doc/missing', cell.pos, path, 'the constant has no value');
    return undefined;
  }
  if (raw.startsWith('"')) {
    try {
      const v: unknown = JSON.parse(raw);
      if (typeof v === 'string') return v;
    } catch {
      // fall through: read as text
    }
  }
  const lower = raw.toLowerCase();
  if (lower === 'yes' || lower === 'true') return true;
  if (lower === 'no' || lower === 'false') return false;
  if (lower === 'empty list') return [];
  const n = Number(raw);
  if (Number.isFinite(n)) return n;
  // Words followed by the exact value in code: a point or length of time.
  const lastCode = cell.codes[cell.codes.length - 1];
  if (lastCode !== undefined && raw.endsWith(`\`${lastCode}\`)`) && temporalType(lastCode)) return lastCode;
  // A list: only code spans, separated by commas.
  if (cell.codes.length > 0 && cell.text.split(',').every((p) => cell.codes.includes(p.trim())))
    if (cell.codes.length === cell.text.split(',').length) return cell.codes;
  return raw;
}
