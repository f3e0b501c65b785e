import type { AppModel } from '../model/index.ts';
import { ME_SQL } from './compileRuleSql.ts';
import { historyTable } from './historyTable.ts';
import { qualified, quoteIdent, quoteLiteral } from './quote.ts';
import { colSql, tableOf } from './specModel.ts';
import { sqlFunction, sqlTrigger } from './sqlFunction.ts';

/**
 * Set (transaction-local) by a transition function around its own update, so the edit trigger
 * leaves the row's writes to the transition's own history entry instead of recording them twice.
 */
export const IN_TRANSITION = 'ninefold.in_transition';

/** Fields of `entity` whose edits its history records (`audited`, on an entity with states). */
export function auditedFields(model: AppModel, entity: string): string[] {
  const t = model.tables.get(entity);
  if (t?.statusField === undefined) return [];
  return Object.entries(t.spec.fields)
    .filter(([n, f]) => f.audited && n !== t.statusField)
    .map(([n]) => n);
}

/** `[child entity, reference field, parent]` for rows whose adding is recorded in the parent's history. */
export function auditedChildren(model: AppModel, parent?: string): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const t of model.tables.values())
    for (const r of t.references)
      if (
        t.byField.get(r.field)?.spec?.audited &&
        t.byField.get(r.field)?.type === 'ref' &&
        model.tables.get(r.target)?.statusField !== undefined &&
        (!parent || r.target === parent)
      )
        out.push([t.entity, r.field, r.target]);
  return out;
}

/**
 * The history's other entries (docs/architecture.md, "History"): an edit of an audited field
 * (`kind = 'edit'`, input = the fields' new values, previous = their old ones) and a row added under an audited reference
 * (`kind = 'added'`, transition = the child entity, input = its id). Written by triggers, so every
 * way in (forms, the REST API, a transaction) is recorded. Setup by the owner (no signed-in user,
 * e.g. the demo seed) is not a person's action and is not recorded.
 */
export function emitAuditTriggers(model: AppModel, entity: string): string {
  return [
    ...editAudit(model, entity),
    ...auditedChildren(model)
      .filter(([c]) => c === entity)
      .flatMap(([, field, parent]) => addedAudit(model, entity, field, parent)),
  ].join('\n\n');
}

/** The edit trigger of an entity's audited fields (nothing when it has none). */
function editAudit(model: AppModel, entity: string): string[] {
  const t = tableOf(model, entity);
  const fields = auditedFields(model, entity);
  const out: string[] = [];
  if (t.statusField !== undefined && fields.length > 0) {
    const status = colSql(model, entity, t.statusField);
    const fn = qualified('app', t.names.audit);
    const body = [
      'declare',
      "  v jsonb := '{}'::jsonb;",
      "  p jsonb := '{}'::jsonb;",
      'begin',
      `  if ${ME_SQL} is null or coalesce(current_setting(${quoteLiteral(IN_TRANSITION)}, true), '') = 'on' then`,
      '    return null;',
      '  end if;',
      ...fields.map((f) => {
        const c = colSql(model, entity, f);
        const k = quoteLiteral(f);
        return `  if new.${c} is distinct from old.${c} then v := v || jsonb_build_object(${k}, to_jsonb(new.${c})); p := p || jsonb_build_object(${k}, to_jsonb(old.${c})); end if;`;
      }),
      "  if v <> '{}'::jsonb then",
      `    insert into ${historyTable(t)} (row_id, kind, transition, from_state, to_state, actor, input, previous)`,
      `    values (new.id, 'edit', '', old.${status}, new.${status}, ${ME_SQL}, v, p);`,
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
      sqlTrigger('ninefold_audit', 'after update', t.ref, fn),
    );
  }
  return out;
}

/** The trigger recording a row of `child` added under an audited reference `field` to `parent`. */
function addedAudit(model: AppModel, child: string, field: string, parent: string): string[] {
  const c = tableOf(model, child);
  const p = tableOf(model, parent);
  if (p.statusField === undefined) return [];
  const column = c.byField.get(field)?.column ?? field;
  const ref = quoteIdent(column);
  const status = colSql(model, parent, p.statusField);
  const fn = qualified('app', c.names.auditAdded(column));
  const body = [
    'begin',
    `  if ${ME_SQL} is null or new.${ref} is null then`,
    '    return null;',
    '  end if;',
    `  insert into ${historyTable(p)} (row_id, kind, transition, from_state, to_state, actor, input)`,
    `  select p.id, 'added', ${quoteLiteral(child)}, p.${status}, p.${status}, ${ME_SQL}, jsonb_build_object('id', new.id)`,
    `  from ${p.ref} p where p.id = new.${ref};`,
    '  return null;',
    'end;',
  ];
  return [
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
    sqlTrigger(quoteIdent(c.names.auditAddedTrigger(column)), 'after insert', c.ref, fn),
  ];
}
