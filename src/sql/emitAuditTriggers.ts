import { columnName, tableName } from '../naming.ts';
import type { AppSpec } from '../spec/types.ts';
import { ME_SQL } from './compileRuleSql.ts';
import { historyTable } from './historyTable.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { tableRef } from './specModel.ts';
import { sqlFunction, sqlTrigger } from './sqlFunction.ts';

/**
 * Set (transaction-local) by a transition function around its own update, so the edit trigger
 * leaves the row's writes to the transition's own history entry instead of recording them twice.
 */
export const IN_TRANSITION = 'ninefold.in_transition';

/** Fields of `entity` whose edits its history records (`audited`, on an entity with states). */
export function auditedFields(spec: AppSpec, entity: string): string[] {
  const machine = spec.states[entity];
  if (!machine) return [];
  return Object.entries(spec.entities[entity]?.fields ?? {})
    .filter(([n, f]) => f.audited && n !== machine.field)
    .map(([n]) => n);
}

/** `[child entity, reference field, parent]` for rows whose adding is recorded in the parent's history. */
export function auditedChildren(spec: AppSpec, parent?: string): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const [entity, e] of Object.entries(spec.entities))
    for (const [name, f] of Object.entries(e.fields))
      if (f.audited && f.type === 'ref' && f.ref && spec.states[f.ref] && (!parent || f.ref === parent))
        out.push([entity, name, f.ref]);
  return out;
}

/**
 * The history's other entries (docs/architecture.md, "History"): an edit of an audited field
 * (`kind = 'edit'`, input = the fields' new values) and a row added under an audited reference
 * (`kind = 'added'`, transition = the child entity, input = its id). Written by triggers, so every
 * way in (forms, the REST API, a transaction) is recorded. Setup by the owner (no signed-in user,
 * e.g. the demo seed) is not a person's action and is not recorded.
 */
export function emitAuditTriggers(spec: AppSpec, entity: string): string {
  const out: string[] = [];
  const fields = auditedFields(spec, entity);
  const machine = spec.states[entity];
  if (machine && fields.length > 0) {
    const status = quoteIdent(columnName(machine.field));
    const fn = `app.${quoteIdent(`${tableName(entity)}__audit`)}`;
    const body = [
      'declare',
      "  v jsonb := '{}'::jsonb;",
      'begin',
      `  if ${ME_SQL} is null or coalesce(current_setting(${quoteLiteral(IN_TRANSITION)}, true), '') = 'on' then`,
      '    return null;',
      '  end if;',
      ...fields.map((f) => {
        const c = quoteIdent(columnName(f));
        return `  if new.${c} is distinct from old.${c} then v := v || jsonb_build_object(${quoteLiteral(f)}, to_jsonb(new.${c})); end if;`;
      }),
      "  if v <> '{}'::jsonb then",
      `    insert into ${historyTable(entity)} (row_id, kind, transition, from_state, to_state, actor, input)`,
      `    values (new.id, 'edit', '', old.${status}, new.${status}, ${ME_SQL}, v);`,
      '  end if;',
      '  return null;',
      'end;',
    ];
    out.push(
      sqlFunction({
        name: fn,
        args: '',
        argTypes: '',
        returns: 'trigger',
        language: 'plpgsql',
        volatility: 'volatile',
        securityDefiner: true,
        body: body.join('\n'),
        executeTo: [],
        comment: `History of ${entity}: edits of ${fields.join(', ')}.`,
      }),
      sqlTrigger('ninefold_audit', 'after update', tableRef(entity), fn),
    );
  }
  for (const [child, field, parent] of auditedChildren(spec).filter(([c]) => c === entity)) {
    const pm = spec.states[parent];
    if (!pm) continue;
    const ref = quoteIdent(columnName(field));
    const status = quoteIdent(columnName(pm.field));
    const fn = `app.${quoteIdent(`${tableName(child)}__audit_${columnName(field)}`)}`;
    const body = [
      'begin',
      `  if ${ME_SQL} is null or new.${ref} is null then`,
      '    return null;',
      '  end if;',
      `  insert into ${historyTable(parent)} (row_id, kind, transition, from_state, to_state, actor, input)`,
      `  select p.id, 'added', ${quoteLiteral(child)}, p.${status}, p.${status}, ${ME_SQL}, jsonb_build_object('id', new.id)`,
      `  from ${tableRef(parent)} p where p.id = new.${ref};`,
      '  return null;',
      'end;',
    ];
    out.push(
      sqlFunction({
        name: fn,
        args: '',
        argTypes: '',
        returns: 'trigger',
        language: 'plpgsql',
        volatility: 'volatile',
        securityDefiner: true,
        body: body.join('\n'),
        executeTo: [],
        comment: `History of ${parent}: a ${child} added under it.`,
      }),
      sqlTrigger(quoteIdent(`ninefold_audit_${columnName(field)}`), 'after insert', tableRef(child), fn),
    );
  }
  return out.join('\n\n');
}
