import type { AppModel, TableNode, TransitionNode } from '../model/index.ts';
import { auditedFields, IN_TRANSITION } from './emitAuditTriggers.ts';
import { historyTable } from './emitHistory.ts';
import { serverPayloadSql } from './emitOutbox.ts';
import { doBlock, qualified, quoteLiteral } from './quote.ts';
import { colSql, type Target, tableOf } from './specModel.ts';
import { indent, sqlFunction } from './sqlFunction.ts';
import { ruleSql } from './typedRule.ts';

/**
 * The system has no user: rules of a transition that happens by time read `me` as empty, and the
 * job's clock (`p_now`) as `now`, so a job run with a moved clock sets what that clock says.
 */
const SYSTEM = { me: '(null::uuid)', now: 'p_now' } as const;

/** `app.run_timed(p_now)`: every transition that happens by time, of every table. */
export const RUN_TIMED = 'app.run_timed';
/** What clients (and the Supabase adapter before a read) call: `public.ninefold_run_timed()`, clock = now(). */
export const RUN_TIMED_RPC = 'ninefold_run_timed';
/** The pg_cron job's name (Supabase): one job, every minute. */
export const RUN_TIMED_JOB = 'ninefold-run-timed';

/** The transitions of a table that happen by themselves (`after`). */
export function timedTransitions(t: TableNode): TransitionNode[] {
  return t.transitions.filter((tr) => tr.after !== undefined);
}

/** Whether any entity has a transition that happens by itself. */
export function hasTimedTransitions(model: AppModel): boolean {
  return [...model.tables.values()].some((t) => timedTransitions(t).length > 0);
}

/** The instant of `after` over row `x` as a timestamptz (a date is its UTC midnight, as in every rule). */
function afterSql(model: AppModel, tr: TransitionNode): string {
  const rule = tr.after;
  if (!rule) throw new Error(`${tr.entity}.${tr.name} has no "after"`);
  const sql = ruleSql({ model, row: 'x', ...SYSTEM }, rule);
  return rule.typed?.type.kind === 'date' ? `((${sql})::timestamp at time zone 'utc')` : `(${sql})`;
}

/** One timed transition's loop: each due row in a from-state whose guards hold moves, one savepoint each. */
function timedLoop(model: AppModel, t: TableNode, tr: TransitionNode): string[] {
  const statusCol = colSql(model, t.entity, t.statusField as string);
  const trl = quoteLiteral(tr.name);
  const guards = tr.guardRules.map(
    (g) => `coalesce(${ruleSql({ model, row: 'r', ...SYSTEM }, g.rule)}, false)`,
  );
  const assigns = [
    ...tr.setRules.map(
      ({ field, rule }) =>
        `${colSql(model, t.entity, field)} = ${ruleSql({ model, row: 'x', ...SYSTEM }, rule)}`,
    ),
    `${statusCol} = ${quoteLiteral(tr.to)}`,
  ];
  const calls = tr.calls.map((call) => {
    const lit = quoteLiteral(call);
    return `      perform app.outbox_write(${lit}, null::jsonb, ${serverPayloadSql(model, t.entity, call)}, ${quoteLiteral(t.entity)}, r.id, ${trl});`;
  });
  return [
    `  for r in select * from ${t.ref} x`,
    `    where x.${statusCol} in (${tr.from.map(quoteLiteral).join(', ') || 'null'}) and ${afterSql(model, tr)} <= p_now`,
    '    order by x.id for update skip locked',
    '  loop',
    `    v_from := r.${statusCol};`,
    ...(guards.length > 0 ? [`    continue when not (${guards.join(' and ')});`] : []),
    // A row a rule now refuses (a validation that changed since) stays as it is; the others move.
    '    begin',
    `      update ${t.ref} x set`,
    indent(assigns.join(',\n'), 8),
    '      where x.id = r.id',
    '      returning x.* into r;',
    `      insert into ${historyTable(t)} (row_id, transition, from_state, to_state, actor, input)`,
    `      values (r.id, ${trl}, v_from, ${quoteLiteral(tr.to)}, null, '{}'::jsonb);`,
    ...calls,
    '      n := n + 1;',
    '    exception when others then',
    `      raise warning 'ninefold: ${t.entity}.${tr.name} of % did not happen: %', r.id, sqlerrm;`,
    '    end;',
    '  end loop;',
  ];
}

/**
 * `app.<table>__run_timed(p_now)`: moves every row whose timed transition is due at `p_now`,
 * as the system (history actor empty). Returns how many moved.
 */
function emitTableRunTimed(model: AppModel, entity: string): string {
  const t = tableOf(model, entity);
  const timed = timedTransitions(t);
  if (timed.length === 0 || t.statusField === undefined) return '';
  const audited = auditedFields(model, entity).length > 0;
  const body = [
    'declare',
    `  r ${t.ref};`,
    '  v_from text;',
    '  n integer := 0;',
    'begin',
    ...(audited ? [`  perform set_config(${quoteLiteral(IN_TRANSITION)}, 'on', true);`] : []),
    ...timed.flatMap((tr) => timedLoop(model, t, tr)),
    ...(audited ? [`  perform set_config(${quoteLiteral(IN_TRANSITION)}, '', true);`] : []),
    '  return n;',
    'end;',
  ];
  return sqlFunction({
    name: qualified('app', t.names.runTimed),
    args: 'p_now timestamptz default now()',
    argTypes: 'timestamptz',
    returns: 'integer',
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: true,
    body: body.join('\n'),
    executeTo: [],
    comment: `Transitions of ${entity} that happen by time: ${timed.map((tr) => tr.name).join(', ')}.`,
  });
}

/**
 * The transitions that happen by time: one function per table, `app.run_timed(p_now)` running them
 * all, `public.ninefold_run_timed()` for signed-in clients (the clock is the server's), and on
 * Supabase a pg_cron job every minute when the extension is installed (docs/hosting.md).
 */
export function emitTimed(model: AppModel, target: Target): string {
  if (!hasTimedTransitions(model)) return '';
  const tables = [...model.tables.values()].filter((t) => timedTransitions(t).length > 0);
  const all = sqlFunction({
    name: RUN_TIMED,
    args: 'p_now timestamptz default now()',
    argTypes: 'timestamptz',
    returns: 'integer',
    language: 'plpgsql',
    volatility: 'volatile',
    securityDefiner: true,
    body: [
      'begin',
      `  return ${tables.map((t) => `${qualified('app', t.names.runTimed)}(p_now)`).join(' + ')};`,
      'end;',
    ].join('\n'),
    executeTo: [],
    comment: 'Every transition that happens by time, at p_now; returns how many rows moved.',
  });
  const rpc = sqlFunction({
    name: qualified('public', RUN_TIMED_RPC),
    args: '',
    argTypes: '',
    returns: 'integer',
    language: 'sql',
    volatility: 'volatile',
    securityDefiner: true,
    body: `select ${RUN_TIMED}(now());`,
    executeTo: ['authenticated'],
    comment: "What time has done by now, before a read (the clock is the server's, never the caller's).",
  });
  return [
    ...tables.map((t) => emitTableRunTimed(model, t.entity)),
    all,
    rpc,
    ...(target === 'supabase' ? [CRON_SQL] : []),
  ].join('\n\n');
}

/** On Supabase: run the job every minute through pg_cron, when the project has the extension. */
const CRON_SQL = doBlock(
  [
    '',
    'begin',
    "  if exists (select 1 from pg_extension where extname = 'pg_cron') then",
    `    perform cron.schedule(${quoteLiteral(RUN_TIMED_JOB)}, '* * * * *', ${quoteLiteral(`select ${RUN_TIMED}()`)});`,
    '  end if;',
    'end;',
    '',
  ].join('\n'),
  'cron',
);
