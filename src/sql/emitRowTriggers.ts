import { FILE_META_SQL_COLUMNS } from '../model/implicitColumns.ts';
import type { AppModel, PolicyNode } from '../model/index.ts';
import { ME_SQL } from './compileRuleSql.ts';
import { computedColumns, moneyRounded } from './emitComputed.ts';
import { becomesSql } from './emitPolicies.ts';
import { policyReads } from './policyReads.ts';
import { qualified, quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { colSql, grantsFor, initialState, tableOf, tableRef } from './specModel.ts';
import { indent, sqlFunction, sqlTrigger } from './sqlFunction.ts';
import { ruleSql } from './typedRule.ts';

/** Roles whose writes are policed: the client roles. The database owner (seeds, generated functions) is trusted. */
export const CLIENT_ROLES_SQL = "current_user in ('anon', 'authenticated')";

/** Fields some role may update, in field order (owner and status fields never are). */
export function updatableFields(model: AppModel, entity: string): string[] {
  const t = tableOf(model, entity);
  const blocked = new Set([...t.ownerFields, ...(t.statusField !== undefined ? [t.statusField] : [])]);
  const listed = new Set(
    grantsFor(model, entity).flatMap((g) => (g.action === 'update' ? (g.fields ?? []) : [])),
  );
  return Object.keys(t.spec.fields).filter((f) => listed.has(f) && !blocked.has(f));
}

/**
 * A grant applies to the row written: its role is held and its `when` holds, on `old` for an
 * update (what may be changed), on `new` for a create (there is no other row).
 */
function appliesSql(model: AppModel, g: PolicyNode): string {
  const has = `app.has_role(${ME_SQL}, ${quoteLiteral(g.role)})`;
  if (!g.rule) return has;
  // As the write policy reads it: a table no role may read (no SELECT grant) is empty to
  // the writer, a hop into it null, instead of "permission denied" for the whole write.
  const row = g.action === 'create' ? 'new' : 'old';
  const w = ruleSql({ model, row, unseen: policyReads(model).unseen }, g.rule);
  if (model.roles.get(g.role)?.through) return `coalesce(${w}, false)`;
  return `(${has} and coalesce(${w}, false))`;
}

/**
 * The update or create grants' `becomes` (a rule over the row as it will be): when some grant that
 * applies has one and no applying grant lets the new row through (one without `becomes`, or one
 * whose `becomes` holds on it), the write is refused with the first such grant's catalogue code.
 * The policies' WITH CHECK says the same; raised here first, the client gets the catalogue message
 * instead of a bare row-level-security refusal.
 */
function becomesGuard(model: AppModel, entity: string, action: 'create' | 'update'): string[] {
  const grants = grantsFor(model, entity).filter((g) => g.action === action);
  const judged = grants.filter((g) => g.becomes);
  if (judged.length === 0) return [];
  const through = grants.map((g) => {
    const b = becomesSql(model, g, 'new');
    return b === undefined ? appliesSql(model, g) : `(${appliesSql(model, g)} and ${b})`;
  });
  const raises = judged.map((g, i) => {
    const raise = raiseSql(g.error ?? 'FORBIDDEN', {
      entity: quoteLiteral(entity),
      action: quoteLiteral(action),
    });
    return i === judged.length - 1
      ? `  ${raise}`
      : `  if ${appliesSql(model, g)} then\n    ${raise}\n  end if;`;
  });
  return [
    [
      `if (${judged.map((g) => appliesSql(model, g)).join(' or ')}) and not (${through.join(' or ')}) then`,
      ...raises,
      'end if;',
    ].join('\n'),
  ];
}

/**
 * A client may only point a reference at a row it can read: a reference to a row hidden by RLS
 * fails exactly like one to a missing row (the foreign-key error, SQLSTATE 23503, same text).
 * Without this, the SECURITY DEFINER validation trigger (which runs before RLS WITH CHECK) answers
 * differently for hidden and missing rows ("TICKET_CLOSED" vs an RLS error): an existence oracle.
 * Runs with the client's rights (this trigger is not SECURITY DEFINER), so the `exists` sees what
 * the client sees.
 */
function referenceChecks(model: AppModel, entity: string, changedOnly: boolean): string[] {
  const table = tableOf(model, entity);
  const t = table.table;
  const out: string[] = [];
  for (const r of table.references) {
    if (table.ownerFields.includes(r.field)) continue;
    const parent = r.target;
    const c = quoteIdent(r.column);
    const fk = r.constraintName;
    const changed = changedOnly ? ` and new.${c} is distinct from old.${c}` : '';
    // A table no role may read has no SELECT grant (emitGrants.ts): querying it would fail with
    // "permission denied" even for a null reference (the subquery is planned). The client sees none
    // of its rows, so any reference to it is one to a missing row.
    const missing = policyReads(model).unseen.has(parent)
      ? ''
      : ` and not exists (select 1 from ${tableRef(model, parent)} x where x.id = new.${c})`;
    out.push(
      [
        `if new.${c} is not null${changed}${missing} then`,
        `  raise exception using errcode = '23503', constraint = ${quoteLiteral(fk)},`,
        `    message = ${quoteLiteral(`insert or update on table "${t}" violates foreign key constraint "${fk}"`)},`,
        `    detail = ${quoteLiteral(`Key (${r.column}) is not present in table "${tableOf(model, parent).table}".`)};`,
        'end if;',
      ].join('\n'),
    );
  }
  return out;
}

/** `app.<table>__initial_state`: the state a new row starts in, by the entity's `initialWhen` rules. */
export function initialStateFunction(table: string): string {
  return `${table}__initial_state`;
}

function hasInitialRules(model: AppModel, entity: string): boolean {
  return (model.machines.get(entity)?.initialRules.length ?? 0) > 0;
}

/**
 * The state a client's new row starts in: the first `initialWhen` rule that holds on it (unknown
 * does not hold), else the initial state. SECURITY DEFINER, as the validation trigger: a rule such
 * as `total < department.approvalLimit` reads the referenced row whatever the writer may read, so
 * the state does not depend on who files the row (`me` is still the writer).
 */
function emitInitialState(model: AppModel, entity: string): string {
  const table = tableOf(model, entity);
  const machine = model.machines.get(entity);
  const cases = (machine?.initialRules ?? []).map(
    (r) => `  when coalesce(${ruleSql({ model, row: 'r' }, r.rule)}, false) then ${quoteLiteral(r.state)}`,
  );
  // The rules see the row as the browser's form does: no state yet (it is being chosen), and the
  // computed fields set (the computed trigger runs after this one, so they are worked out here on
  // the copy, in field order, as it does).
  const sets = [
    ...(table.statusField ? [`r.${colSql(model, entity, table.statusField)} := null;`] : []),
    ...computedColumns(model, entity).map(
      (c) =>
        `r.${colSql(model, entity, c.field)} := ${moneyRounded(model, entity, c.field, ruleSql({ model, row: 'r' }, c.computed!), 'r')};`,
    ),
  ];
  const choice = ['case', ...cases, `  else ${quoteLiteral(machine?.initial ?? '')}`, 'end'].join('\n  ');
  return sqlFunction({
    name: qualified('app', initialStateFunction(table.table)),
    args: `p_row ${table.ref}`,
    argTypes: table.ref,
    returns: 'text',
    language: 'plpgsql',
    volatility: 'stable',
    securityDefiner: true,
    body: [
      `declare\n  r ${table.ref} := p_row;\nbegin`,
      indent(sets.join('\n')),
      `  return ${choice};`,
      'end;',
    ].join('\n'),
    executeTo: ['authenticated'],
    comment: `The state a new ${entity} starts in (its initialWhen rules, then ${machine?.initial}).`,
  });
}

/**
 * Bookkeeping and column rules of every write:
 * insert — a client's row gets its owner fields from `auth.uid()` and the initial state;
 * update — id/created_at never change, version is bumped, updated_at set, and a client may change
 * only the columns one of its roles may update on this row (FIELD_NOT_WRITABLE otherwise).
 */
export function emitRowTriggers(model: AppModel, entity: string): string {
  const table = tableOf(model, entity);
  const e = table.spec;
  const owners = table.ownerFields;
  const initial = initialState(table);

  const insert = [
    'begin',
    '  new.created_at := now();',
    '  new.updated_at := new.created_at;',
    '  new.version := 1;',
  ];
  const clientInsert = [
    ...owners.map((f) => `new.${colSql(model, entity, f)} := ${ME_SQL};`),
    ...(table.statusField !== undefined && initial !== undefined
      ? [
          `new.${colSql(model, entity, table.statusField)} := ${
            hasInitialRules(model, entity)
              ? `${qualified('app', initialStateFunction(table.table))}(new)`
              : quoteLiteral(initial)
          };`,
        ]
      : []),
    ...referenceChecks(model, entity, false),
    // A computed field is the server's: a client's value for it is refused, not silently replaced.
    ...table.columns
      .filter((c) => c.computed !== undefined)
      .map(
        (c) =>
          `if new.${colSql(model, entity, c.field)} is not null then\n  ${raiseSql('FIELD_NOT_WRITABLE', { entity: quoteLiteral(entity), field: quoteLiteral(c.field) })}\nend if;`,
      ),
  ];
  if (clientInsert.length > 0)
    insert.push(`  if ${CLIENT_ROLES_SQL} then`, indent(clientInsert.join('\n'), 4), '  end if;');
  insert.push('  return new;', 'end;');

  const updatable = updatableFields(model, entity);
  const guards: string[] = [];
  const fixed = Object.keys(e.fields).filter((f) => !updatable.includes(f));
  const notWritable = (f: string) =>
    raiseSql('FIELD_NOT_WRITABLE', { entity: quoteLiteral(entity), field: quoteLiteral(f) });
  for (const f of fixed) {
    const c = colSql(model, entity, f);
    guards.push(`if new.${c} is distinct from old.${c} then\n  ${notWritable(f)}\nend if;`);
  }
  if (e.files) {
    for (const c of FILE_META_SQL_COLUMNS) {
      guards.push(`if new.${c} is distinct from old.${c} then\n  ${notWritable(c)}\nend if;`);
    }
  }
  for (const f of updatable) {
    const c = colSql(model, entity, f);
    const allowed = grantsFor(model, entity)
      .filter((g) => g.action === 'update' && g.fields?.includes(f))
      .map((g) => appliesSql(model, g));
    guards.push(
      `if new.${c} is distinct from old.${c} and not (${allowed.join(' or ')}) then\n  ${notWritable(f)}\nend if;`,
    );
  }
  guards.push(...referenceChecks(model, entity, true));
  const update = [
    'begin',
    '  new.id := old.id;',
    '  new.created_at := old.created_at;',
    '  new.version := old.version + 1;',
    '  new.updated_at := now();',
  ];
  if (guards.length > 0)
    update.push(`  if ${CLIENT_ROLES_SQL} then`, indent(guards.join('\n'), 4), '  end if;');
  update.push('  return new;', 'end;');

  const common = {
    args: '',
    argTypes: '',
    returns: 'trigger',
    language: 'plpgsql',
    volatility: 'volatile',
    executeTo: [],
  } as const;
  const insertFn = qualified('app', table.names.onInsert);
  const updateFn = qualified('app', table.names.onUpdate);
  return [
    ...(hasInitialRules(model, entity) ? [emitInitialState(model, entity)] : []),
    // Invoker rights: current_user must stay the client's role for the policing to apply.
    sqlFunction({
      ...common,
      name: insertFn,
      securityDefiner: false,
      body: insert.join('\n'),
      comment: `Insert bookkeeping of ${entity}.`,
    }),
    sqlTrigger('ninefold_10_on_insert', 'before insert', table.ref, insertFn),
    sqlFunction({
      ...common,
      name: updateFn,
      securityDefiner: false,
      body: update.join('\n'),
      comment: `Update bookkeeping and column rules of ${entity}.`,
    }),
    sqlTrigger('ninefold_20_on_update', 'before update', table.ref, updateFn),
    ...emitBecomes(model, entity),
  ].join('\n');
}

/**
 * The update and create permissions' `becomes` (becomesGuard) in a trigger of its own, after the
 * computed fields are set (`ninefold_25_computed`): a `becomes` reads the row as it will be
 * stored, as the policy's WITH CHECK does. Invoker rights, like the policies it speaks for.
 */
function emitBecomes(model: AppModel, entity: string): string[] {
  const byOp = (['create', 'update'] as const).flatMap((action) => {
    const lines = becomesGuard(model, entity, action);
    return lines.length === 0 ? [] : [{ action, op: action === 'create' ? 'INSERT' : 'UPDATE', lines }];
  });
  if (byOp.length === 0) return [];
  // One kind of write judged: its guard alone; both: each under its operation.
  const guard =
    byOp.length === 1
      ? (byOp[0]?.lines ?? [])
      : byOp.map((g) => [`if tg_op = '${g.op}' then`, indent(g.lines.join('\n'), 2), 'end if;'].join('\n'));
  const timing = `before ${byOp.map((g) => g.op.toLowerCase()).join(' or ')}`;
  const table = tableOf(model, entity);
  const fn = qualified('app', table.names.checkBecomes);
  return [
    sqlFunction({
      name: fn,
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: false,
      body: [
        'begin',
        `  if ${CLIENT_ROLES_SQL} then`,
        indent(guard.join('\n'), 4),
        '  end if;',
        '  return new;',
        'end;',
      ].join('\n'),
      executeTo: [],
      comment: `What ${byOp.map((g) => (g.action === 'create' ? 'a create' : 'an update')).join(' or ')} of ${entity} may make of the row (the permissions' becomes), with their catalogue codes.`,
    }),
    sqlTrigger('ninefold_28_check_becomes', timing, table.ref, fn),
  ];
}
