import type { AppModel, TableNode, TransitionNode } from '../model/index.ts';
import { blankSql } from '../spec/blank.ts';
import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import type { FieldSpec } from '../spec/types.ts';
import { ME_SQL } from './compileRuleSql.ts';
import { auditedFields, IN_TRANSITION } from './emitAuditTriggers.ts';
import { moneyRounded } from './emitComputed.ts';
import { maskedValueSql } from './emitFieldReads.ts';
import { childLocks, locksForRules, ordered } from './emitGroupLocks.ts';
import { historyTable } from './emitHistory.ts';
import { transitionCallsSql } from './emitOutbox.ts';
import { readableSql } from './emitPolicies.ts';
import { qualified, quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql, rowlessReraiseSql } from './raise.ts';
import { colSql, sqlType, tableOf } from './specModel.ts';
import { indent, sqlFunction } from './sqlFunction.ts';
import { ruleSql } from './typedRule.ts';

/** The SQL reading input field `name` from `p_input` as the field's column type. */
function inputValue(name: string, f: FieldSpec): string {
  const key = quoteLiteral(name);
  if (f.type === 'tags') return `array(select jsonb_array_elements_text(p_input -> ${key}))`;
  return `(p_input ->> ${key})::${sqlType(f)}`;
}

/** An optional input's value: empty (`''`, `null`, no array) is null (tags: none). */
function optionalValue(name: string, f: FieldSpec): string {
  const key = quoteLiteral(name);
  if (f.type === 'tags')
    return `array(select jsonb_array_elements_text(case when jsonb_typeof(p_input -> ${key}) = 'array' then p_input -> ${key} else '[]'::jsonb end))`;
  return `nullif(p_input ->> ${key}, '')::${sqlType(f)}`;
}

/**
 * The history entry's input: every required input, and each optional one that was given a value;
 * never a read-restricted field's (the history is read by whoever reads the row).
 */
function historyInput(t: TableNode, tr: TransitionNode): string {
  const shown = (f: string) => t.byField.get(f)?.read === undefined;
  const parts: string[] = [];
  const input = tr.input.filter(shown);
  if (input.length > 0)
    parts.push(
      `jsonb_build_object(${input.map((i) => `${quoteLiteral(i)}, p_input -> ${quoteLiteral(i)}`).join(', ')})`,
    );
  for (const i of tr.optionalInput.filter(shown)) {
    const key = quoteLiteral(i);
    parts.push(
      `(case when coalesce(p_input ->> ${key}, '') in ('', '[]') then '{}'::jsonb else jsonb_build_object(${key}, p_input -> ${key}) end)`,
    );
  }
  return parts.length === 0 ? "'{}'::jsonb" : parts.join(' || ');
}

/**
 * One function per transition: `public.<table>_<transition>(p_id, p_version, p_input)`.
 * It locks the row, answers NOT_FOUND for rows the caller cannot read (no probing), checks the
 * version, the role, the from-state, the guard and the required input, writes input (required and
 * optional) and `set`
 * fields and the new state, appends history, queues the calls it declares (emitOutbox.ts) and
 * returns the row.
 */
export function emitTransitions(
  model: AppModel,
  entity: string,
  groups: Map<string, Set<string>> = new Map(),
): string {
  const t = tableOf(model, entity);
  if (t.statusField === undefined) return '';
  return t.transitions.map((tr) => emitTransition(model, t, tr, groups)).join('\n\n');
}

/** One transition's function. */
function emitTransition(
  model: AppModel,
  t: TableNode,
  tr: TransitionNode,
  groups: Map<string, Set<string>>,
): string {
  const { entity, name } = tr;
  const table = t.ref;
  const statusCol = colSql(model, entity, t.statusField as string);
  const ent = quoteLiteral(entity);
  const trl = quoteLiteral(name);
  const body: string[] = [
    'declare',
    `  r ${table};`,
    '  v_from text;',
    'begin',
    // `no key update`: children's foreign-key checks (`key share`) do not wait on it, so a child
    // writer holding its group lock never deadlocks with the transition (emitGroupLocks.ts).
    `  select * into r from ${table} x where x.id = p_id for no key update;`,
    `  if not found or not coalesce(${readableSql(model, entity, 'r')}, false) then`,
    `    ${raiseSql('NOT_FOUND', { entity: ent, id: 'p_id' })}`,
    '  end if;',
    `  if not (${
      tr.rolesRule
        ? `coalesce(${ruleSql({ model, row: 'r' }, tr.rolesRule)}, false)`
        : tr.roles.map((role) => `app.has_role(${ME_SQL}, ${quoteLiteral(role)})`).join(' or ') || 'false'
    }) then`,
    `    ${raiseSql('FORBIDDEN', { entity: ent, action: trl })}`,
    '  end if;',
    '  if p_version is not null and r.version <> p_version then',
    `    ${raiseSql('CONFLICT', { entity: ent, id: 'p_id', version: 'p_version', current: 'r.version' })}`,
    '  end if;',
    `  v_from := r.${statusCol};`,
    `  if v_from is null or v_from not in (${tr.from.map(quoteLiteral).join(', ') || 'null'}) then`,
    `    ${raiseSql('INVALID_TRANSITION', { entity: ent, transition: trl, from: 'v_from' })}`,
    '  end if;',
    ...lockedReread(model, tr, groups, table),
  ];
  // Guards in order: the first that fails raises its own code.
  for (const g of tr.guardRules) {
    body.push(
      `  if not coalesce(${ruleSql({ model, row: 'r' }, g.rule)}, false) then`,
      `    ${raiseSql(g.error ?? 'FORBIDDEN', { entity: ent, action: trl })}`,
      '  end if;',
    );
  }
  const assigns = [...inputChecks(model, t, tr, body), `${statusCol} = ${quoteLiteral(tr.to)}`];
  const inputJson = historyInput(t, tr);
  // The row's own edit trigger must not record the transition's writes as edits.
  const audited = auditedFields(model, entity).length > 0;
  body.push(
    ...(audited ? [`  perform set_config(${quoteLiteral(IN_TRANSITION)}, 'on', true);`] : []),
    // Written as the owner: a CHECK the `set` or input breaks comes back without the row.
    '  begin',
    `    update ${table} x set`,
    indent(assigns.join(',\n'), 6),
    '    where x.id = p_id',
    '    returning x.* into r;',
    indent(rowlessReraiseSql()),
    '  end;',
    ...(audited ? [`  perform set_config(${quoteLiteral(IN_TRANSITION)}, '', true);`] : []),
    `  insert into ${historyTable(t)} (row_id, transition, from_state, to_state, actor, input)`,
    `  values (r.id, ${trl}, v_from, ${quoteLiteral(tr.to)}, ${ME_SQL}, ${inputJson});`,
    // Declared calls go to the outbox in this transaction: queued exactly when the transition commits.
    ...transitionCallsSql(model, entity, name),
    // The caller gets the row as it may read it: read-restricted fields masked (emitFieldReads.ts).
    ...t.readRestricted.map(
      (c) => `  r.${quoteIdent(c.column)} := ${maskedValueSql(model, t, c.field, 'r')};`,
    ),
    '  return r;',
    'end;',
  );
  return sqlFunction({
    name: qualified('public', tr.functionName),
    args: "p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb",
    argTypes: 'uuid, integer, jsonb',
    returns: table,
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: true,
    body: body.join('\n'),
    executeTo: ['authenticated'],
    comment: `Transition ${entity}.${name}: ${tr.from.join(', ')} -> ${tr.to} (${tr.roles.join(', ')}).`,
  });
}

/**
 * Rules over other rows (guard, `set` sums) and the children's rules read under their groups'
 * locks; the row is read again under them, so the guard and the `set` expressions see every
 * committed write.
 */
function lockedReread(
  model: AppModel,
  tr: TransitionNode,
  groups: Map<string, Set<string>>,
  table: string,
): string[] {
  const locks = ordered(model, [
    ...childLocks(model, tr.entity, groups, 'r.id'),
    ...locksForRules(model, [...tr.guardRules.map((g) => g.rule), ...tr.setRules.map((s) => s.rule)], 'r'),
  ]);
  if (locks.length === 0) return [];
  return [indent(locks.join('\n')), `  select * into r from ${table} x where x.id = p_id;`];
}

/**
 * The required-input checks (pushed to `body`) and the assignments of the input and `set` fields.
 */
function inputChecks(model: AppModel, t: TableNode, tr: TransitionNode, body: string[]): string[] {
  const where = `states.${tr.entity}.transitions.${tr.name}`;
  const ent = quoteLiteral(tr.entity);
  const trl = quoteLiteral(tr.name);
  const assigns: string[] = [];
  for (const field of tr.input) {
    const f = t.spec.fields[field];
    if (!f) throw new Error(`${where}.input: unknown field ${field}`);
    const key = quoteLiteral(field);
    const empty =
      f.type === 'tags'
        ? ` or jsonb_typeof(p_input -> ${key}) <> 'array' or jsonb_array_length(p_input -> ${key}) = 0`
        : FIELD_TYPES[f.type].freeText !== undefined
          ? ` or ${blankSql(`(p_input ->> ${key})`)}`
          : ` or (p_input ->> ${key}) = ''`;
    body.push(
      `  if p_input -> ${key} is null or jsonb_typeof(p_input -> ${key}) = 'null'${empty} then`,
      `    ${raiseSql('INPUT_REQUIRED', { entity: ent, transition: trl, field: key })}`,
      '  end if;',
    );
    if (!Object.hasOwn(tr.set, field))
      assigns.push(`${colSql(model, tr.entity, field)} = ${inputValue(field, f)}`);
  }
  // Optional input: written when sent (empty is null), left as it is when not.
  for (const field of tr.optionalInput) {
    const f = t.spec.fields[field];
    if (!f) throw new Error(`${where}.optionalInput: unknown field ${field}`);
    if (Object.hasOwn(tr.set, field)) continue;
    const col = colSql(model, tr.entity, field);
    assigns.push(
      `${col} = case when p_input ? ${quoteLiteral(field)} then ${optionalValue(field, f)} else x.${col} end`,
    );
  }
  for (const { field, rule } of tr.setRules) {
    if (!t.spec.fields[field]) throw new Error(`${where}.set: unknown field ${field}`);
    // `set` expressions read the row as it was before the transition (UPDATE semantics).
    // Money is rounded to its currency's minor unit, as a computed field is.
    const value = moneyRounded(model, tr.entity, field, ruleSql({ model, row: 'x' }, rule), 'x');
    assigns.push(`${colSql(model, tr.entity, field)} = ${value}`);
  }
  return assigns;
}
