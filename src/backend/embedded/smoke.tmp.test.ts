import { it } from 'vitest';
import hd from '../../../examples/helpdesk/spec.ts';
const helpdesk = { ...hd, validation: { ...hd.validation, attachment: hd.validation.attachment?.filter((r) => !('rule' in r) || !r.rule.includes('size')) ?? [] } };
import { createEmbeddedBackend } from './createEmbeddedBackend.ts';

it('smoke', async () => {
  const t0 = Date.now();
  const b = await createEmbeddedBackend({ spec: helpdesk });
  console.log('boot', Date.now() - t0, b.schema);
  const s = await b.auth.signUp({ email: 'ana@example.com', password: 'secret-1', name: 'Ana' });
  console.log(s.user);
  const p = await b.data.list('person');
  console.log(p);
  const t = await b.data.create('ticket', { title: 'Printer on fire', description: 'It is really on fire, please help quickly.' });
  console.log(t);
  console.log(await b.data.list('ticket', { search: 'fire' }));
  await b.close();
}, 60000);
