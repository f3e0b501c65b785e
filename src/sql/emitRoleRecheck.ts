import type { Typed } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import type { AppSpec, RowRuleSpec } from '../spec/types.ts';
import { columnFor } from './columns.ts';
import { rowRuleHolds } from './emitValidation.ts';
import { quoteIdent, quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { tableRef } from './specModel.ts';
import { indent, sqlFunction } from './sqlFunction.ts';
import { typedRule } from './typedRule.ts';

/** A validation rule that asks a role of someone named by the row (`assignee is agent`). */
export interface RoleDependentRule {
  entity: string;
  index: number;
  rule: RowRuleSpec;
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
export function roleDependentRules(spec: AppSpec): RoleDependentRule[] {
  const out: RoleDependentRule[] = [];
  for (const [entity, rules] of Object.entries(spec.validation)) {
    rules.forEach((rule, index) => {
      if (rule.kind !== 'row' || rule.onChange) return;
      const where = `validation.${entity}.${index}`;
      const subjects: (string | null)[] = [];
      roleSubjects(typedRule(spec, rule.rule, entity, `${where}.rule`), subjects);
      if (rule.when !== undefined)
        roleSubjects(typedRule(spec, rule.when, entity, `${where}.when`), subjects);
      if (subjects.length === 0) return;
      const fields = subjects.includes(null) ? undefined : [...new Set(subjects as string[])].sort();
      out.push({ entity, index, rule, fields });
    });
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
export function emitRoleRecheck(spec: AppSpec): string {
  const rules = roleDependentRules(spec);
  if (rules.length === 0) return '';
  const blocks = rules.map((r) => {
    const where = `validation.${r.entity}.${r.index}`;
    const match = r.fields
      ? ` where ${r.fields.map((f) => `x.${quoteIdent(columnFor(spec, r.entity, f))} = v_user`).join(' or ')}`
      : '';
    const field = r.rule.field ?? r.fields?.[0];
    return [
      'v_count := 0;',
      `for c in select * from ${tableRef(r.entity)} x${match} loop`,
      `  if not (${rowRuleHolds(spec, r.entity, r.rule, 'c', where)}) then`,
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
