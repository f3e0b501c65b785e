import type { CheckedRule } from '../model/checkedRule.ts';
import type { AppModel } from '../model/index.ts';
import { type PayloadFillNode, payloadFillsOf } from '../model/outbox.ts';
import { OUTBOX_SQL_NAMES as N } from '../model/outboxSqlNames.ts';
import { CONTROL_CHARACTERS_SQL } from '../outbox/singleLine.ts';
import type { RuleType } from '../rules/ast.ts';
import { compileRuleSql, ME_SQL } from './compileRuleSql.ts';
import { quoteLiteral } from './quote.ts';
import { raiseSql } from './raise.ts';
import { colSql, tableRef } from './specModel.ts';
import { sqlFunction } from './sqlFunction.ts';
import { typedOf } from './typedRule.ts';

/** The SQL type a rule value is cast to before it becomes JSON (a bare literal has none). */
const CAST: Partial<Record<RuleType['kind'], string>> = {
  text: 'text',
  enum: 'text',
  number: 'numeric',
  boolean: 'boolean',
  date: 'date',
  datetime: 'timestamptz',
  ref: 'uuid',
};

/** One value in the rule language over `row`, as SQL of the given kind (JSON, or text for a template). */
function valueSql(model: AppModel, rule: CheckedRule, row: string, as: 'json' | 'text') {
  const typed = typedOf(rule);
  if (typed.type.kind === 'null') return as === 'json' ? "'null'::jsonb" : "''";
  const cast = CAST[typed.type.kind];
  const v = `(${compileRuleSql(typed, { model, row })})${cast ? `::${cast}` : ''}`;
  return as === 'json' || cast === 'text' ? (as === 'json' ? `to_jsonb(${v})` : v) : `${v}::text`;
}

/**
 * A text value on one line (finding 28.6): control characters and line breaks become spaces, so
 * a ticket title `Hi\r\nBcc: x@y` cannot add a header to the mail its subject goes into.
 */
function oneLine(textSql: string): string {
  return `regexp_replace(${textSql}, ${quoteLiteral(CONTROL_CHARACTERS_SQL)}, ' ', 'g')`;
}

function fillSql(model: AppModel, entity: string, f: PayloadFillNode, row: string, depth: number): string {
  const src = f.source;
  if (src.kind === 'value') {
    if (!f.singleLine) return valueSql(model, src.rule, row, 'json');
    // Only text changes; a number, a date or an id is one line already and keeps its JSON type.
    const kind = typedOf(src.rule).type.kind;
    return kind === 'text' || kind === 'enum'
      ? `to_jsonb(${oneLine(valueSql(model, src.rule, row, 'text'))})`
      : valueSql(model, src.rule, row, 'json');
  }
  if (src.kind === 'template') {
    // Placeholders that are empty (null) read as nothing, as `concat` treats them.
    const parts = src.parts.map((p) =>
      p.kind === 'text' ? quoteLiteral(p.text) : valueSql(model, p.rule, row, 'text'),
    );
    const text = `concat(${parts.join(', ') || "''"})`;
    return `to_jsonb(${f.singleLine ? oneLine(text) : text})`;
  }
  if (!src.ref) throw new Error(`calls: ${src.entity} has no single reference to ${entity} (key ${f.key})`);
  const c = `_item${depth}`;
  const item = objectSql(model, src.entity, src.items, c, depth + 1);
  return `coalesce((select jsonb_agg(${item} order by ${c}.created_at, ${c}.id) from ${tableRef(model, src.entity)} ${c} where ${c}.${colSql(model, src.entity, src.ref)} = ${row}.id), '[]'::jsonb)`;
}

function objectSql(
  model: AppModel,
  entity: string,
  fills: readonly PayloadFillNode[],
  row: string,
  depth: number,
): string {
  const pairs = fills
    .filter((f) => f.shape !== undefined)
    .map((f) => `${quoteLiteral(f.key)}, ${fillSql(model, entity, f, row, depth)}`);
  // Empty values are left out: an optional key then is absent, a required one is "missing".
  return pairs.length === 0 ? "'{}'::jsonb" : `jsonb_strip_nulls(jsonb_build_object(${pairs.join(', ')}))`;
}

/**
 * The payload the database fills when `entity`'s transition writes `call`: the call's `fill`
 * (values, templates and child rows over the row the transition leaves) and the keys the row
 * implies (`id`, `<entity>Id`, a field's own name). These win over what the client sends
 * (`p_input.calls.<call>`), so a client never chooses a value the specification fixes.
 */
export function serverPayloadSql(model: AppModel, entity: string, call: string, row = 'r'): string {
  return objectSql(model, entity, payloadFillsOf(model.outbox, entity, call), row, 1);
}

/**
 * The statements a transition function runs, after its update and history, for each call it
 * declares: the caller must hold one of the call's roles (FORBIDDEN otherwise: the whole
 * transition rolls back), and the payload — the row's keys, plus what the client gave in
 * `p_input.calls.<call>` — is checked against the call's shape and written to `app.outbox` in the
 * transition's own transaction. A call is therefore queued exactly when its transition commits.
 */
export function transitionCallsSql(model: AppModel, entity: string, transition: string): string[] {
  const tr = model.tables.get(entity)?.transitions.find((t) => t.name === transition);
  const out: string[] = [];
  for (const call of tr?.calls ?? []) {
    const c = model.calls.get(call);
    if (!c) continue;
    const lit = quoteLiteral(call);
    out.push(
      `  if not (${c.roles.map((role) => `app.has_role(${ME_SQL}, ${quoteLiteral(role)})`).join(' or ') || 'false'}) then`,
      `    ${raiseSql('FORBIDDEN', { entity: quoteLiteral(entity), action: quoteLiteral(transition), call: lit })}`,
      '  end if;',
      `  perform app.outbox_write(${lit}, p_input -> 'calls' -> ${lit}, ${serverPayloadSql(model, entity, call)}, ${quoteLiteral(entity)}, r.id, ${quoteLiteral(transition)});`,
    );
  }
  return out;
}

const SHAPE_ISSUE = `declare
  k text;
  t jsonb;
  v_name text;
  v_opt boolean;
  v jsonb;
  v_issue jsonb;
  v_path text;
  v_text text;
  v_ok boolean;
begin
  if jsonb_typeof(p_shape) = 'string' then
    v_text := case when jsonb_typeof(p_value) = 'string' then p_value #>> '{}' end;
    v_ok := case p_shape #>> '{}'
      when 'string' then jsonb_typeof(p_value) = 'string'
      when 'number' then jsonb_typeof(p_value) = 'number'
      when 'integer' then jsonb_typeof(p_value) = 'number' and (p_value #>> '{}')::numeric = trunc((p_value #>> '{}')::numeric)
      when 'boolean' then jsonb_typeof(p_value) = 'boolean'
      when 'uuid' then v_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      when 'email' then v_text ~ '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$'
      when 'datetime' then v_text ~ '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$'
      else false end;
    if coalesce(v_ok, false) and p_shape #>> '{}' = 'datetime' then
      begin
        perform v_text::timestamptz;
      exception when others then
        v_ok := false;
      end;
    end if;
    if not coalesce(v_ok, false) then
      return jsonb_build_object('path', p_path, 'problem', 'type', 'expected', p_shape #>> '{}');
    end if;
    return null;
  elsif jsonb_typeof(p_shape) = 'array' then
    if jsonb_typeof(p_value) is distinct from 'array' then
      return jsonb_build_object('path', p_path, 'problem', 'type', 'expected', 'array');
    end if;
    for i in 0 .. jsonb_array_length(p_value) - 1 loop
      v_issue := app.outbox_shape_issue(p_shape -> 0, p_value -> i, false, case when p_path = '' then i::text else p_path || '.' || i end);
      if v_issue is not null then return v_issue; end if;
    end loop;
    return null;
  end if;
  if jsonb_typeof(p_value) is distinct from 'object' then
    return jsonb_build_object('path', p_path, 'problem', 'type', 'expected', 'object');
  end if;
  for k, t in select e.key, e.value from jsonb_each(p_shape) e order by e.key loop
    v_opt := right(k, 1) = '?';
    v_name := case when v_opt then left(k, -1) else k end;
    v_path := case when p_path = '' then v_name else p_path || '.' || v_name end;
    v := p_value -> v_name;
    if v is null or jsonb_typeof(v) = 'null' then
      if not v_opt and not p_partial then
        return jsonb_build_object('path', v_path, 'problem', 'missing');
      end if;
      continue;
    end if;
    v_issue := app.outbox_shape_issue(t, v, false, v_path);
    if v_issue is not null then return v_issue; end if;
  end loop;
  for k in select jsonb_object_keys(p_value) order by 1 loop
    if not (p_shape ? k or p_shape ? (k || '?')) then
      return jsonb_build_object('path', case when p_path = '' then k else p_path || '.' || k end, 'problem', 'unexpected');
    end if;
  end loop;
  return null;
end;`;

/**
 * The outbox (issue 11, finding 11): declared calls are written by the database in the
 * transaction that causes them, and sent afterwards by a deliverer (the embedded backend's worker,
 * or the `ninefold-outbox` Edge Function on Supabase) with retries, backoff and an idempotency key.
 *
 * - `app.outbox`: one row per call; clients read it only as admins (to see failures), and never
 *   insert, update or delete (no grant; no policy).
 * - `app.declared_call(name)`: the call as declared (method, path, service, payload shape).
 * - `app.outbox_write(...)`: used by transition functions only (no client may execute it).
 * - `public.record_call(name, payload)`: a client asks for a call that no transition declares
 *   (roles and the whole shape checked); calls a transition declares are refused here.
 * - `public.outbox_claim / outbox_delivered / outbox_failed`: the deliverer's side, executable
 *   by the owner and Supabase's `service_role` only. Claiming uses `for update skip locked` and a
 *   lease, so two deliverers never take the same row at once.
 *
 * Empty when the specification declares no calls.
 */ export function emitOutbox(model: AppModel): string {
  if (model.calls.size === 0) return '';
  return [
    outboxTableSql(),
    declaredCallFunction(model),
    shapeIssueFunction(),
    outboxWriteFunction(),
    recordCallFunction(model),
    claimFunction(model),
    serviceRoleGrant('public.outbox_claim(text[], integer, integer)'),
    deliveredFunction(),
    serviceRoleGrant('public.outbox_delivered(uuid, jsonb)'),
    failedFunction(),
    serviceRoleGrant('public.outbox_failed(uuid, text, integer, double precision)'),
  ]
    .map((p) => p.trimEnd())
    .join('\n\n');
}

/** Lets Supabase's `service_role` (the Edge Function deliverer) run a deliverer function, where it exists. */
function serviceRoleGrant(fn: string): string {
  return [
    'do $do$ begin',
    "  if exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role') then",
    `    grant execute on function ${fn} to service_role;`,
    '  end if;',
    'end $do$;',
  ].join('\n');
}

/** `app.outbox`, its delivery columns, indexes and its one policy (admins read). */
function outboxTableSql(): string {
  return [
    'create table if not exists app.outbox (',
    '  id uuid primary key default gen_random_uuid(),',
    '  call text not null,',
    '  payload jsonb not null,',
    '  requested_by uuid references auth.users (id) on delete set null,',
    '  created_at timestamptz not null default now()',
    ');',
    // Databases made before the outbox kept delivery state gain the columns here.
    'alter table app.outbox add column if not exists entity text;',
    'alter table app.outbox add column if not exists row_id uuid;',
    'alter table app.outbox add column if not exists transition text;',
    // Stable across retries and deliverers: the receiving service drops a repeated key.
    "alter table app.outbox add column if not exists idempotency_key text generated always as ('ninefold-outbox-' || id::text) stored;",
    "alter table app.outbox add column if not exists status text not null default 'pending';",
    'alter table app.outbox add column if not exists attempts integer not null default 0;',
    'alter table app.outbox add column if not exists next_attempt_at timestamptz not null default now();',
    'alter table app.outbox add column if not exists locked_until timestamptz;',
    'alter table app.outbox add column if not exists delivered_at timestamptz;',
    'alter table app.outbox add column if not exists last_error text;',
    'alter table app.outbox add column if not exists response jsonb;',
    `alter table app.outbox drop constraint if exists ${N.statusCheck};`,
    `alter table app.outbox add constraint ${N.statusCheck} check (status in ('pending', 'sending', 'delivered', 'failed'));`,
    `create index if not exists ${N.dueIndex} on app.outbox (next_attempt_at) where status in ('pending', 'sending');`,
    `create index if not exists ${N.deliveredIndex} on app.outbox (delivered_at) where status = 'delivered';`,
    'alter table app.outbox enable row level security;',
    'alter table app.outbox force row level security;',
    `drop policy if exists ${N.readPolicy} on app.outbox;`,
    `create policy ${N.readPolicy} on app.outbox for select to authenticated using ((select app.is_admin()));`,
    'revoke all on table app.outbox from public, anon, authenticated;',
    'grant select on table app.outbox to authenticated;',
    // The client-callable recorder of the first embedded outbox wrote any call: gone.
    'drop function if exists app.record_outbox(text, jsonb);',
  ].join('\n');
}

/** `app.declared_call(name)`: each call as declared, with the transitions that queue it. */
function declaredCallFunction(model: AppModel): string {
  const declared = [
    '  select case p_call',
    ...[...model.calls].map(
      ([name, c]) =>
        `    when ${quoteLiteral(name)} then ${quoteLiteral(
          JSON.stringify({
            method: c.method,
            path: c.path,
            service: c.service,
            payload: c.payload,
            roles: c.roles,
            transitions: model.outbox.transitions.get(name) ?? [],
          }),
        )}::jsonb`,
    ),
    '  end',
  ].join('\n');
  return sqlFunction({
    name: 'app.declared_call',
    args: 'p_call text',
    argTypes: 'text',
    returns: 'jsonb',
    language: 'sql',
    volatility: 'immutable',
    securityDefiner: false,
    body: declared,
    executeTo: [],
    comment:
      'A declared call of the specification (method, path, service, payload shape, roles, transitions).',
  });
}

/** `app.outbox_shape_issue`: the first place a value does not fit a call's shape. */
function shapeIssueFunction(): string {
  return sqlFunction({
    name: 'app.outbox_shape_issue',
    args: "p_shape jsonb, p_value jsonb, p_partial boolean default false, p_path text default ''",
    argTypes: 'jsonb, jsonb, boolean, text',
    returns: 'jsonb',
    language: 'plpgsql',
    volatility: 'immutable',
    securityDefiner: false,
    body: SHAPE_ISSUE,
    executeTo: [],
    comment:
      'The first place a value does not fit a call shape ({path, problem, expected}), or null; as src/backend/checkShape.ts. Partial: missing top-level keys pass.',
  });
}

/** `app.outbox_write`: queues a call a transition declares (transition functions only). */
function outboxWriteFunction(): string {
  return sqlFunction({
    name: 'app.outbox_write',
    args: 'p_call text, p_client jsonb, p_server jsonb, p_entity text, p_row uuid, p_transition text',
    argTypes: 'text, jsonb, jsonb, text, uuid, text',
    returns: 'uuid',
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: true,
    body: [
      'declare',
      '  v_payload jsonb;',
      '  v_issue jsonb;',
      '  v_id uuid;',
      'begin',
      "  if p_client is not null and jsonb_typeof(p_client) not in ('object', 'null') then",
      `    ${raiseSql('INVALID_INPUT', { call: 'p_call', issues: "jsonb_build_array(jsonb_build_object('path', '', 'problem', 'type', 'expected', 'object'))" })}`,
      '  end if;',
      "  v_payload := coalesce(nullif(p_client, 'null'::jsonb), '{}'::jsonb) || coalesce(p_server, '{}'::jsonb);",
      // Partial: keys the client may still owe are checked when the deliverer claims the call.
      "  v_issue := app.outbox_shape_issue(app.declared_call(p_call) -> 'payload', v_payload, true);",
      '  if v_issue is not null then',
      `    ${raiseSql('INVALID_INPUT', { call: 'p_call', issues: 'jsonb_build_array(v_issue)' })}`,
      '  end if;',
      '  insert into app.outbox (call, payload, requested_by, entity, row_id, transition)',
      `  values (p_call, v_payload, ${ME_SQL}, p_entity, p_row, p_transition)`,
      '  returning id into v_id;',
      '  return v_id;',
      'end;',
    ].join('\n'),
    executeTo: [],
    comment:
      'Queues a call a transition declares, in the transition’s transaction (transition functions only).',
  });
}

/** `public.record_call`: a client asks for a call no transition declares. */
function recordCallFunction(model: AppModel): string {
  const roleCase = [
    '  v_allowed := case p_call',
    ...[...model.calls].map(
      ([name, c]) =>
        `    when ${quoteLiteral(name)} then ${c.roles.length ? c.roles.map((r) => `app.has_role(v_uid, ${quoteLiteral(r)})`).join(' or ') : 'false'}`,
    ),
    '    else false end;',
  ];
  return sqlFunction({
    name: 'public.record_call',
    args: 'p_call text, p_payload jsonb',
    argTypes: 'text, jsonb',
    returns: 'uuid',
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: true,
    body: [
      'declare',
      `  v_uid uuid := ${ME_SQL};`,
      '  v_allowed boolean;',
      '  v_issue jsonb;',
      '  v_id uuid;',
      'begin',
      '  if app.declared_call(p_call) is null then',
      `    ${raiseSql('UNKNOWN_CALL', { call: 'p_call' })}`,
      '  end if;',
      ...roleCase,
      '  if v_uid is null or not coalesce(v_allowed, false) then',
      `    ${raiseSql('FORBIDDEN', { call: 'p_call' })}`,
      '  end if;',
      // A call a transition declares is sent when the transition commits, never on request.
      "  if jsonb_array_length(app.declared_call(p_call) -> 'transitions') > 0 then",
      `    ${raiseSql('FORBIDDEN', { call: 'p_call', reason: "'sent-by-transition'", transitions: "app.declared_call(p_call) -> 'transitions'" })}`,
      '  end if;',
      "  v_issue := app.outbox_shape_issue(app.declared_call(p_call) -> 'payload', p_payload);",
      '  if v_issue is not null then',
      `    ${raiseSql('INVALID_INPUT', { call: 'p_call', issues: 'jsonb_build_array(v_issue)' })}`,
      '  end if;',
      '  insert into app.outbox (call, payload, requested_by) values (p_call, p_payload, v_uid) returning id into v_id;',
      '  return v_id;',
      'end;',
    ].join('\n'),
    executeTo: ['authenticated'],
    comment: 'A client asks for a declared call that no transition declares (roles and payload checked).',
  });
}

/** `public.outbox_claim`: the deliverer takes the due calls (leased), purging old delivered ones. */
function claimFunction(model: AppModel): string {
  return sqlFunction({
    name: 'public.outbox_claim',
    args: 'p_calls text[] default null, p_limit integer default 10, p_lease_seconds integer default 60',
    argTypes: 'text[], integer, integer',
    returns:
      'table (id uuid, call text, payload jsonb, idempotency_key text, attempts integer, method text, path text, service text)',
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: true,
    body: [
      'declare',
      '  o record;',
      '  v_issue jsonb;',
      'begin',
      // Delivered calls are kept `outboxRetentionDays`, then purged here (a bounded batch per
      // claim, on the partial index below), so the table does not grow without end.
      '  delete from app.outbox x where x.id in (',
      "    select d.id from app.outbox d where d.status = 'delivered'",
      `      and d.delivered_at < now() - make_interval(days => ${Math.ceil(model.outbox.retentionDays)}) limit 1000);`,
      '  for o in',
      '    select x.id, x.call, x.payload from app.outbox x',
      "    where ((x.status = 'pending' and x.next_attempt_at <= now()) or (x.status = 'sending' and x.locked_until < now()))",
      '      and (p_calls is null or x.call = any (p_calls))',
      '    order by x.next_attempt_at, x.id',
      '    limit greatest(p_limit, 0)',
      // Two deliverers never take the same row: the second skips what the first has locked.
      '    for update skip locked',
      '  loop',
      "    v_issue := app.outbox_shape_issue(app.declared_call(o.call) -> 'payload', o.payload);",
      '    if v_issue is not null then',
      // A payload the service would refuse is never sent: failed at once, with why.
      "      update app.outbox x set status = 'failed', locked_until = null, last_error = 'payload does not fit the call: ' || v_issue::text where x.id = o.id;",
      '      continue;',
      '    end if;',
      "    update app.outbox x set status = 'sending', attempts = x.attempts + 1, locked_until = now() + make_interval(secs => p_lease_seconds)",
      '    where x.id = o.id',
      '    returning x.id, x.call, x.payload, x.idempotency_key, x.attempts',
      '    into id, call, payload, idempotency_key, attempts;',
      "    method := app.declared_call(o.call) ->> 'method';",
      "    path := app.declared_call(o.call) ->> 'path';",
      "    service := app.declared_call(o.call) ->> 'service';",
      '    return next;',
      '  end loop;',
      'end;',
    ].join('\n'),
    executeTo: [],
    comment: 'The deliverer takes the due calls (leased; owner and service_role only).',
  });
}

/** `public.outbox_delivered`: the deliverer marks a call sent. */
function deliveredFunction(): string {
  return sqlFunction({
    name: 'public.outbox_delivered',
    args: 'p_id uuid, p_response jsonb default null',
    argTypes: 'uuid, jsonb',
    returns: 'boolean',
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: true,
    body: [
      'begin',
      "  update app.outbox x set status = 'delivered', delivered_at = now(), locked_until = null, last_error = null, response = p_response",
      "  where x.id = p_id and x.status = 'sending';",
      '  return found;',
      'end;',
    ].join('\n'),
    executeTo: [],
    comment: 'The deliverer marks a call sent; a delivered call is never claimed again.',
  });
}

/** `public.outbox_failed`: a failed attempt, retried with backoff or failed for good. */
function failedFunction(): string {
  return sqlFunction({
    name: 'public.outbox_failed',
    args: 'p_id uuid, p_error text, p_max_attempts integer default 8, p_base_seconds double precision default 30',
    argTypes: 'uuid, text, integer, double precision',
    returns: 'text',
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: true,
    body: [
      'declare',
      '  v_status text;',
      'begin',
      // Exponential backoff: base, 2×base, 4×base, … after attempts 1, 2, 3, …; failed for good after the last.
      '  update app.outbox x set',
      "    status = case when x.attempts >= p_max_attempts then 'failed' else 'pending' end,",
      '    next_attempt_at = now() + make_interval(secs => p_base_seconds * power(2, greatest(x.attempts - 1, 0))),',
      '    locked_until = null,',
      '    last_error = left(p_error, 2000)',
      "  where x.id = p_id and x.status = 'sending'",
      '  returning x.status into v_status;',
      '  return v_status;',
      'end;',
    ].join('\n'),
    executeTo: [],
    comment:
      'The deliverer reports a failed attempt: retried with backoff, or failed for good (last_error kept).',
  });
}
