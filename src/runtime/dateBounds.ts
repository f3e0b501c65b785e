import type { AppModel } from '../model/appModel.ts';
import type { Typed } from '../rules/ast.ts';
import { evaluateRule } from '../rules/evaluate.ts';
import { formRules } from './formRules.ts';
import { checked, type RuleUser, ruleVerdict } from './ruleVerdict.ts';

/** The earliest and latest instant (ms) a date or datetime field's rules accept; either may be missing. */
export interface DateBounds {
  min?: number;
  max?: number;
}

const FLIP = { '>=': '<=', '>': '<', '<=': '>=', '<': '>' } as const;

/**
 * The bounds a date picker offers for `field`, read from the specification's row rules of the
 * shape `field >= X` / `field <= X` (either side, `>`/`<` too) where `X` reads only the clock and
 * constants (`now`, `today - days(maxExpenseAgeDays)`, `date("2027-01-01")`): the calendar then
 * opens on an allowed month and its time starts at the earliest allowed moment. The same rules
 * still judge each day (`acceptedDay`) and the database enforces them; this only reads their
 * shape, nothing is written by hand per field. A rule whose `when` does not hold for a value in
 * this row is left out.
 *
 * @example
 * dateBounds(resolve(helpdesk), 'ticket', 'dueAt', {}, agent, now) // { min: now.getTime() } (DUE_IN_PAST)
 */
export function dateBounds(
  model: AppModel,
  entity: string,
  field: string,
  row: Readonly<Record<string, unknown>>,
  user: RuleUser | null,
  now: Date = new Date(),
): DateBounds {
  const out: DateBounds = {};
  for (const { rule } of formRules(model, entity)) {
    if (rule.kind !== 'row') continue;
    const typed = checked(model, entity, rule.rule);
    if (typed?.kind !== 'binary') continue;
    const bound = boundOf(typed, field);
    if (!bound) continue;
    const value = evaluateRule(bound.other, { roleClosure: model.roleClosure, user, row: null, now });
    if (typeof value !== 'number') continue;
    const at = { ...row, [field]: new Date(value).toISOString() };
    if (rule.when && ruleVerdict(model, entity, rule.when, { user, row: at, now }) !== true) continue;
    if (bound.side === 'min') out.min = Math.max(out.min ?? value, value);
    else out.max = Math.min(out.max ?? value, value);
  }
  return out;
}

function boundOf(
  t: Typed & { kind: 'binary' },
  field: string,
): { side: 'min' | 'max'; other: Typed } | undefined {
  if (!(t.op in FLIP)) return undefined;
  const op = t.op as keyof typeof FLIP;
  const isField = (x: Typed) =>
    x.kind === 'field' && x.scope === 'row' && x.path.length === 1 && x.path[0] === field;
  const [o, other] = isField(t.left)
    ? [op, t.right]
    : isField(t.right)
      ? [FLIP[op], t.left]
      : [undefined, undefined];
  if (!o || !other || !clockOnly(other)) return undefined;
  return { side: o === '>=' || o === '>' ? 'min' : 'max', other };
}

/** Reads nothing but literals, constants and the clock (no row, no user, no other rows). */
function clockOnly(t: Typed): boolean {
  switch (t.kind) {
    case 'literal':
    case 'const':
    case 'now':
    case 'today':
      return true;
    case 'binary':
      return clockOnly(t.left) && clockOnly(t.right);
    case 'neg':
      return clockOnly(t.operand);
    case 'call':
      return t.args.every(clockOnly);
    default:
      return false;
  }
}
