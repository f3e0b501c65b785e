import { columnName, transitionFunctionName } from '../naming.ts';
import { transitionGuards } from '../spec/transitionGuards.ts';
import type { AppSpec, FieldSpec } from '../spec/types.ts';
import { ME_SQL } from './compileRuleSql.ts';
import { auditedFields, IN_TRANSITION } from './emitAuditTriggers.ts';
import { childLocks, locksForTexts, ordered } from './emitGroupLocks.ts';
import { historyTable } from './emitHistory.ts';
import { transitionCallsSql } from './emitOutbox.ts';
import { readableSql } from './emitPolicies.ts';
import { qualified, quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql, rowlessReraiseSql } from './raise.ts';
import { entityOf, sqlType, tableRef } from './specModel.ts';
import { indent, sqlFunction } from './sqlFunction.ts';
import { ruleSql } from './typedRule.ts';

/** The SQL reading input field `name` from `p_input` as the field's column type. */
function inputValue(name: string, f: FieldSpec): string {
  const key = quoteLiteral(name);
  if (f.type === 'tags') return `array(select jsonb_array_elements_text(p_input -> ${key}))`;
  return `(p_input ->> ${key})::${sqlType(f)}`;
}

/**
 * One function per transition: `public.<table>_<transition>(p_id, p_version, p_input)`.
 * It locks the row, answers NOT_FOUND for rows the caller cannot read (no probing), checks the
 * version, the role, the from-state, the guard and the required input, writes input and `set`
 * fields and the new state, appends history, queues the calls it declares (emitOutbox.ts) and
 * returns the row.
 */
export function emitTransitions(
  spec: AppSpec,
  entity: string,
  groups: Map<string, Set<string>> = new Map(),
): string {
  const st = spec.states[entity];
  if (!st) return '';
  const e = entityOf(spec, entity);
  const table = tableRef(entity);
  const statusCol = quoteIdent(columnName(st.field));
  const out: string[] = [];
  for (const [name, tr] of Object.entries(st.transitions)) {
    const where = `states.${entity}.transitions.${name}`;
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
      `  if not found or not coalesce(${readableSql(spec, entity, 'r')}, false) then`,
      `    ${raiseSql('NOT_FOUND', { entity: ent, id: 'p_id' })}`,
      '  end if;',
      `  if not (${tr.roles.map((role) => `app.has_role(${ME_SQL}, ${quoteLiteral(role)})`).join(' or ') || 'false'}) then`,
      `    ${raiseSql('FORBIDDEN', { entity: ent, action: trl })}`,
      '  end if;',
      '  if p_version is not null and r.version <> p_version then',
      `    ${raiseSql('CONFLICT', { entity: ent, id: 'p_id', version: 'p_version', current: 'r.version' })}`,
      '  end if;',
      `  v_from := r.${statusCol};`,
      `  if v_from is null or v_from not in (${tr.from.map(quoteLiteral).join(', ') || 'null'}) then`,
      `    ${raiseSql('INVALID_TRANSITION', { entity: ent, transition: trl, from: 'v_from' })}`,
      '  end if;',
    ];
    // Rules over other rows (guard, `set` sums) and the children's rules read under their groups' locks.
    const locks = ordered(spec, [
      ...childLocks(spec, entity, groups, 'r.id'),
      ...locksForTexts(
        spec,
        entity,
        [
          ...transitionGuards(tr).map((g) => ({ text: g.rule, where: `${where}.${g.path}` })),
          ...Object.entries(tr.set ?? {}).map(([f, text]) => ({
            text,
            where: `${where}.set.${f}`,
            expect: 'value' as const,
          })),
        ],
        'r',
      ),
    ]);
    if (locks.length > 0) {
      body.push(
        indent(locks.join('\n')),
        // Re-read under the locks: the guard and the `set` expressions see every committed write.
        `  select * into r from ${table} x where x.id = p_id;`,
      );
    }
    // Guards in order: the first that fails raises its own code.
    for (const g of transitionGuards(tr)) {
      body.push(
        `  if not coalesce(${ruleSql({ spec, row: 'r' }, g.rule, entity, `${where}.${g.path}`)}, false) then`,
        `    ${raiseSql(g.error ?? 'FORBIDDEN', { entity: ent, action: trl })}`,
        '  end if;',
      );
    }
    const assigns: string[] = [];
    const inputs = tr.input ?? [];
    for (const field of inputs) {
      const f = e.fields[field];
      if (!f) throw new Error(`${where}.input: unknown field ${field}`);
      const key = quoteLiteral(field);
      const empty =
        f.type === 'tags'
          ? ` or jsonb_typeof(p_input -> ${key}) <> 'array' or jsonb_array_length(p_input -> ${key}) = 0`
          : ` or (p_input ->> ${key}) = ''`;
      body.push(
        `  if p_input -> ${key} is null or jsonb_typeof(p_input -> ${key}) = 'null'${empty} then`,
        `    ${raiseSql('INPUT_REQUIRED', { entity: ent, transition: trl, field: key })}`,
        '  end if;',
      );
      if (!(tr.set && Object.hasOwn(tr.set, field)))
        assigns.push(`${quoteIdent(columnName(field))} = ${inputValue(field, f)}`);
    }
    for (const [field, expr] of Object.entries(tr.set ?? {})) {
      if (!e.fields[field]) throw new Error(`${where}.set: unknown field ${field}`);
      // `set` expressions read the row as it was before the transition (UPDATE semantics).
      const value = ruleSql({ spec, row: 'x' }, expr, entity, `${where}.set.${field}`, 'value');
      assigns.push(`${quoteIdent(columnName(field))} = ${value}`);
    }
    assigns.push(`${statusCol} = ${quoteLiteral(tr.to)}`);
    const inputJson =
      inputs.length === 0
        ? "'{}'::jsonb"
        : `jsonb_build_object(${inputs.map((i) => `${quoteLiteral(i)}, p_input -> ${quoteLiteral(i)}`).join(', ')})`;
    // The row's own edit trigger must not record the transition's writes as edits.
    const audited = auditedFields(spec, entity).length > 0;
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
      `  insert into ${historyTable(entity)} (row_id, transition, from_state, to_state, actor, input)`,
      `  values (r.id, ${trl}, v_from, ${quoteLiteral(tr.to)}, ${ME_SQL}, ${inputJson});`,
      // Declared calls go to the outbox in this transaction: queued exactly when the transition commits.
      ...transitionCallsSql(spec, entity, name),
      '  return r;',
      'end;',
    );
    out.push(
      sqlFunction({
        name: qualified('public', transitionFunctionName(entity, name)),
        args: "p_id uuid, p_version integer default null, p_input jsonb default '{}'::jsonb",
        argTypes: 'uuid, integer, jsonb',
        returns: table,
        language: 'plpgsql',
        volatility: 'volatile',
        securityDefiner: true,
        body: body.join('\n'),
        executeTo: ['authenticated'],
        comment: `Transition ${entity}.${name}: ${tr.from.join(', ')} -> ${tr.to} (${tr.roles.join(', ')}).`,
      }),
    );
  }
  return out.join('\n\n');
}
