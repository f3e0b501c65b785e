// Prints the size of each reference app's database snapshot (`.tar.gz`, what a first visit
// downloads): `node scripts/run-ts.mjs scripts/snapshot-size.ts [helpdesk,expenses,tasks]`.
import { buildSnapshot } from '../src/backend/embedded/snapshot.ts';

const apps = (process.argv[2] ?? 'helpdesk,expenses,tasks').split(',');
for (const app of apps) {
  const spec = (await import(`../examples/${app}/spec.ts`)).default;
  const started = performance.now();
  const { tarball } = await buildSnapshot(spec, { demo: true });
  const ms = Math.round(performance.now() - started);
  console.log(`${app}\t${(tarball.byteLength / 1024).toFixed(1)} KB\t(${ms} ms)`);
}
