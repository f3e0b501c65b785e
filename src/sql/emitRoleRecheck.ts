import type { AppModel } from '../model/index.ts';
import type { RowRuleNode } from '../model/validationRule.ts';
import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import { rowRuleHolds } from './emitValidation.ts';
import { quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { colSql, tableRef } from './specModel.ts';
import { indent, sqlFunction } from './sqlFunction.ts';
import { typedOf } from './typedRule.ts';

/** A validation rule that asks a role of someone named by the row (`assignee is agent`). */
export interface RoleDependentRule {
  entity: string;
  index: number;
  rule: RowRuleNode;
  /** The row fields naming that someone; undefined when a subject is not a plain row field. */
  fields: string[] | undefined;
}

/** Subjects of role tests that name a user other than the caller; `null` for one that is not a row field. */
function roleSubjects(t: Typed, out: (string | null)[]): (string | null)[] {
  if (t.kind === 'role' && t.subject.kind !== 'me') {
    const s = t.subject;
    out.push(s.kind === 'field' && s.scope === 'row' && s.path.length === 1 ? s.path[0] : null);
  }
  for (const c of typedChildren(t)) roleSubjects(c, out);
  return out;
}

/**
 * Validation row rules whose outcome depends on another user's roles: a role change can break
 * them for rows already written (docs/decisions.md, "Role changes and rules that ask a role").
 * `onChange` rules are left out: they bind only when their field is written.
 *
 * @example
 * roleDependentRules(helpdesk); // [{ entity: 'ticket', index: 0, fields: ['assignee'], … }]
 */
export function roleDependentRules(model: AppModel): RoleDependentRule[] {
  const out: RoleDependentRule[] = [];
  for (const t of model.tables.values())
    for (const rule of t.rules) {
      if (rule.kind !== 'row' || rule.spec.onChange) continue;
      const subjects: (string | null)[] = [];
      roleSubjects(typedOf(rule.rule), subjects);
      if (rule.when) roleSubjects(typedOf(rule.when), subjects);
      if (subjects.length === 0) continue;
      const fields = subjects.includes(null) ? undefined : [...new Set(subjects as string[])].sort();
      out.push({ entity: t.entity, index: rule.index, rule, fields });
    }
  return out;
}

/**
 * Granting or revoking a role re-checks every rule that asks a role of someone the row names,
 * for the rows naming that user, at commit (deferred: `set_roles` removes and re-adds roles in
 * one transaction). A rule the change would break refuses it with ROLE_IN_USE {role, entity,
 * field, count}: the admin reassigns those rows first. A user deleted altogether passes (their
 * rows follow the references' `onDelete`).
 */
export function emitRoleRecheck(model: AppModel): string {
  const rules = roleDependentRules(model);
  if (rules.length === 0) return '';
  const blocks = rules.map((r) => {
    const match = r.fields
      ? ` where ${r.fields.map((f) => `x.${colSql(model, r.entity, f)} = v_user`).join(' or ')}`
      : '';
    const field = r.rule.spec.field ?? r.fields?.[0];
    return [
      'v_count := 0;',
      `for c in select * from ${tableRef(model, r.entity)} x${match} loop`,
      `  if not (${rowRuleHolds(model, r.rule, 'c')}) then`,
      '    v_count := v_count + 1;',
      '  end if;',
      'end loop;',
      'if v_count > 0 then',
      `  ${raiseSql('ROLE_IN_USE', {
        role: 'v_role',
        entity: quoteLiteral(r.entity),
        ...(field ? { field: quoteLiteral(field) } : {}),
        count: 'v_count',
      })}`,
      'end if;',
    ].join('\n');
  });
  return [
    sqlFunction({
      name: 'app.recheck_role_rules',
      args: '',
      argTypes: '',
      returns: 'trigger',
      language: 'plpgsql',
      volatility: 'volatile',
      securityDefiner: true,
      body: [
        'declare',
        '  c record;',
        '  v_count integer;',
        "  v_user uuid := case when tg_op = 'DELETE' then old.user_id else new.user_id end;",
        "  v_role text := case when tg_op = 'DELETE' then old.role else new.role end;",
        'begin',
        '  if not exists (select 1 from auth.users u where u.id = v_user) then',
        '    return null;',
        '  end if;',
        indent(blocks.join('\n')),
        '  return null;',
        'end;',
      ].join('\n'),
      executeTo: [],
      comment: "Refuses a role change that breaks a validation rule asking that user's role (ROLE_IN_USE).",
    }),
    'drop trigger if exists user_roles__recheck_rules on app.user_roles;',
    'create constraint trigger user_roles__recheck_rules after insert or delete on app.user_roles',
    '  deferrable initially deferred for each row execute function app.recheck_role_rules();',
  ].join('\n');
}
