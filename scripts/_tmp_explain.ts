import helpdesk from '../examples/helpdesk/spec.ts';
import { createEmbeddedBackend } from '../src/backend/embedded/createEmbeddedBackend.ts';
import { seedDemoAccounts } from '../src/backend/embedded/demo/demoAccounts.ts';
const b = await createEmbeddedBackend({ spec: helpdesk });
const ids = await b.asOwner((tx) => seedDemoAccounts(tx, helpdesk));
await b.asOwner(async (tx) => { await tx.query('alter table public.ticket disable trigger user'); await tx.query(`insert into public.ticket (title, description, priority, requester, status, created_at, updated_at)
 select 'Ticket ' || g || ' about ' || (array['printer','invoice','login','vpn','email','laptop'])[1 + g % 6], 'Bench ticket number ' || g || ': the thing does not work as expected, please have a look at it.', (array['low','normal','high','urgent'])[1 + g % 4], $1::uuid, 'new', now() - g * interval '1 minute', now() - g * interval '1 minute' from generate_series(1, 100000) g`, [ids.customer]); await tx.query('alter table public.ticket enable trigger user'); await tx.query('analyze public.ticket'); });
console.log((await b.db.query(`select indexdef from pg_indexes where tablename='ticket' and indexdef like '%created%'`)).rows);
await b.auth.signIn({ email: 'agent@demo.test', password: 'demo-agent' });
for (const q of [{ sort: [{ field: 'createdAt', direction: 'desc' }], limit: 50, offset: 50, count: 'none' }, { sort: [{ field: 'createdAt', direction: 'desc' }], limit: 50, offset: 100, count: 'none' }, { sort: [{ field: 'createdAt', direction: 'desc' }], limit: 50, offset: 150, count: 'none' }, { limit: 0 }, { search: 'vpn', sort: [{ field: 'createdAt', direction: 'desc' }], limit: 50, count: 'none' }, { search: 'vpn', limit: 0 }]) {
  const t = performance.now(); const r = await b.data.list('ticket', q as never); console.log(JSON.stringify(q), Math.round(performance.now() - t), r.total, r.rows.length);
}
