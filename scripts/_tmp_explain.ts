import helpdesk from '../examples/helpdesk/spec.ts';
import { createEmbeddedBackend } from '../src/backend/embedded/createEmbeddedBackend.ts';
import { seedDemoAccounts } from '../src/backend/embedded/demo/demoAccounts.ts';
import { entityInfo } from '../src/backend/embedded/entityInfo.ts';
import { listQuery } from '../src/backend/embedded/listQuery.ts';
const b = await createEmbeddedBackend({ spec: helpdesk });
const ids = await b.asOwner((tx) => seedDemoAccounts(tx, helpdesk));
await b.asOwner((tx) => tx.query(`insert into public.ticket (created_at, title, description, priority, requester, status)
 select now() - g * interval '1 minute', 'Ticket ' || g || ' about ' || (array['printer','invoice','login','vpn','email','laptop'])[1 + g % 6], 'Bench ticket number ' || g || ': the thing does not work as expected, please have a look at it.', (array['low','normal','high','urgent'])[1 + g % 4], $1::uuid, 'new' from generate_series(1, 100000) g`, [ids.customer]));
await b.db.exec('analyze');
console.log((await b.db.query(`select indexdef from pg_indexes where tablename='ticket'`)).rows);
console.log((await b.db.query(`select polname, pg_get_expr(polqual, polrelid) q from pg_policy where polrelid='public.ticket'::regclass`)).rows);
const info = entityInfo(helpdesk, 'ticket');
const claims = JSON.stringify({ sub: ids.agent, role: 'authenticated' });
for (const q of [{ sort: [{ field: 'createdAt', direction: 'desc' }], limit: 50, offset: 50 }, { sort: [{ field: 'createdAt', direction: 'desc' }], limit: 50, offset: 50, count: 'none' }, { search: 'vpn', sort: [{ field: 'createdAt', direction: 'desc' }], limit: 50 }]) {
  const sql = listQuery(info, q as never);
  await b.db.transaction(async (tx) => {
    await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true)`, [claims, ids.agent]);
    await tx.exec('set local role authenticated');
    const t = performance.now();
    const r = await tx.query(`explain analyze ${sql.text}`, sql.params);
    console.log(performance.now() - t, r.rows.map((x: any) => x['QUERY PLAN']).join('\n'));
  });
}
console.log((await b.db.query(`select min(created_at), max(created_at) from public.ticket`)).rows);
await b.db.exec('create index tmp_ca on public.ticket (created_at desc, id)');
for (const q of [{ sort: [{ field: 'createdAt', direction: 'desc' }], limit: 50, offset: 50, count: 'none' }, { sort: [{ field: 'createdAt', direction: 'desc' }], limit: 50, offset: 5000, count: 'none' }, { limit: 0 }]) {
  const sql = listQuery(info, q as never);
  await b.db.transaction(async (tx) => {
    await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('request.jwt.claim.sub', $2, true)`, [claims, ids.agent]);
    await tx.exec('set local role authenticated');
    const t = performance.now();
    const r = await tx.query(sql.text, sql.params);
    console.log('INDEXED', JSON.stringify(q), performance.now() - t);
  });
}
const t = performance.now(); const c = await b.data.list('ticket', { limit: 0 }); console.log('count via port', performance.now() - t, c.total);
