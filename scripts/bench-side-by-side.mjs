#!/usr/bin/env node
// `npm run bench:side-by-side [-- --runs 3 --sizes 1000,100000]`: runs the side-by-side harness
// that lives OUTSIDE the repository (the react-admin peer app and its driver, `../shared/perf/`,
// see its README) from the project's root, and writes its table into docs/performance.md between
// the markers below, with the machine's load. The harness's code is not copied into the repository.
// SIDE_BY_SIDE_DIR points elsewhere (default: the first of ../shared/perf, ../../shared/perf).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const dir =
  process.env.SIDE_BY_SIDE_DIR ??
  ['../shared/perf', '../../shared/perf']
    .map((d) => resolve(root, d))
    .find((d) => existsSync(join(d, 'run.sh')));
if (!dir) {
  console.error('bench:side-by-side: no ../shared/perf/run.sh (set SIDE_BY_SIDE_DIR)');
  process.exit(2);
}
// `--from-json FILE`: the table of an earlier (or interrupted) run's records, without measuring.
const args = process.argv.slice(2);
const fromJson = args.indexOf('--from-json') >= 0 ? args[args.indexOf('--from-json') + 1] : undefined;
const out = join(mkdtempSync(join(tmpdir(), 'sbs-md-')), 'side-by-side.md');
const loadBefore = loadavg().map((x) => x.toFixed(2));
/** A copy of the harness beside a link to the project's node_modules (as run.sh does), for `--report`. */
function reportHarness() {
  const work = mkdtempSync(join(tmpdir(), 'sbs-report-'));
  copyFileSync(join(dir, 'side-by-side.mjs'), join(work, 'side-by-side.mjs'));
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'));
  return join(work, 'side-by-side.mjs');
}
// run.sh passes its own `--md <work>/side-by-side.md` before ours, and the harness takes the first:
// the table is read from the work folder (SBS_WORK_ROOT, made here when not given).
const work = process.env.SBS_WORK_ROOT ?? mkdtempSync(join(tmpdir(), 'side-by-side-'));
const run = fromJson
  ? spawnSync('node', [reportHarness(), '--report', resolve(fromJson)], { cwd: root, encoding: 'utf8' })
  : spawnSync(join(dir, 'run.sh'), args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, SBS_WORK_ROOT: work },
    });
if (run.status !== 0) process.exit(run.status ?? 1);
if (fromJson) writeFileSync(out, run.stdout);
else copyFileSync(join(work, 'side-by-side.md'), out);
const loadAfter = loadavg().map((x) => x.toFixed(2));

const BEGIN = '<!-- side-by-side:begin -->';
const END = '<!-- side-by-side:end -->';
const table = readFileSync(out, 'utf8').trim();
const block = `${BEGIN}
Command: \`npm run bench:side-by-side -- ${args.join(' ')}\` (the harness in \`../shared/perf/\`, outside
the repository). ${new Date().toISOString().slice(0, 16)}Z, ${cpus().length} cores; load average
(1/5/15 min) ${loadBefore.join(' / ')} before and ${loadAfter.join(' / ')} after — other runs shared
the machine, so the apps ran interleaved and the figures are medians.

${table}
${END}`;
const file = join(root, 'docs/performance.md');
const doc = readFileSync(file, 'utf8');
const start = doc.indexOf(BEGIN);
const end = doc.indexOf(END);
const next =
  start >= 0 && end > start
    ? `${doc.slice(0, start)}${block}${doc.slice(end + END.length)}`
    : `${doc.trimEnd()}\n\n## Side by side with react-admin (bench:side-by-side)\n\n${block}\n`;
writeFileSync(file, next);
console.log(`bench:side-by-side: table written to ${file}`);
