import type { Typed } from './ast.ts';

/** Whether a rule reads anything beyond the row's own columns (so it cannot be a CHECK constraint). */
export function readsBeyondRow(t: Typed): boolean {
  switch (t.kind) {
    case 'literal':
    case 'const':
      return false;
    case 'field':
      return t.path.length > 1 || t.scope !== 'row';
    case 'me':
    case 'now':
    case 'today':
    case 'this':
    case 'role':
    case 'count':
    case 'sum':
      return true;
    case 'binary':
      return readsBeyondRow(t.left) || readsBeyondRow(t.right);
    case 'not':
    case 'neg':
    case 'empty':
      return readsBeyondRow(t.operand);
    case 'in':
      return readsBeyondRow(t.operand) || t.list.some(readsBeyondRow);
    case 'call':
      return t.args.some(readsBeyondRow);
  }
}
