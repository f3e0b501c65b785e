import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { lintSpec } from '../check/lintSpec.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { type LoadResult, loadSpec } from '../import/loadSpec.ts';
import type { AppSpec } from '../spec/types.ts';
import type { MigrateOptions } from './migrateCommand.ts';
import { defaultMigrationPath } from './migrationFileName.ts';

/** Where the command line writes; tests and embedders pass their own. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** The clock (migration file names); defaults to the system clock. */
  now?: () => Date;
  /** The directory relative paths are resolved against; defaults to `process.cwd()`. */
  cwd?: string;
}

const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Exit codes: 0 clean (or warnings only), 1 the specification has errors, 2 nothing could be checked. */
export const EXIT = { ok: 0, invalid: 1, failed: 2 } as const;

/** A failure with a one-line message for the user; caught at the top, never shown as a stack. */
class CliFailure extends Error {}

/**
 * Runs the `ninefold` command line with the arguments after the program name and returns
 * the exit code. Never throws and never prints a stack trace.
 *
 * @example
 * process.exitCode = await main(['check', 'examples/helpdesk', '--json']);
 */
export async function main(args: readonly string[], io: Io = processIo): Promise<number> {
  let code: number = EXIT.ok;
  const setCode: SetCode = (c) => {
    code = c;
  };
  const program = new Command('ninefold')
    .description('Turn one nine-section application specification into an app, a migration and a document.')
    .version(packageVersion(), '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err, outputError: (text, write) => write(text) })
    .showHelpAfterError('(add --help for usage)');
  // The order of registration is the order of `ninefold --help`.
  for (const register of COMMANDS) register(program, io, setCode);

  try {
    if (args.length === 0) {
      program.outputHelp();
      return EXIT.failed;
    }
    await program.parseAsync([...args], { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version exit 0; usage mistakes (unknown command, missing argument) exit 2.
      return e.exitCode === 0 ? EXIT.ok : EXIT.failed;
    }
    io.err(`ninefold: ${oneLine(e)}\n`);
    return EXIT.failed;
  }
}

/** A command's action reports its exit code through this; `main` returns the last one set. */
type SetCode = (code: number) => void;

/** Adds one command (or a family of them) to the program. */
type Register = (program: Command, io: Io, setCode: SetCode) => void;

function registerCheck(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('check')
    .description(
      'load, validate and lint a specification (.ts, .json, or a directory with spec.ts/spec.json)',
    )
    .argument('<spec>', 'specification file or directory')
    .option('--json', 'print { ok, errors, warnings, diagnostics } as JSON')
    .action(async (spec: string, opts: { json?: boolean }) => {
      setCode(await check(spec, opts.json === true, io));
    });
}

function registerDoc(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('doc')
    .description('write the nine-point specification document (Markdown)')
    .argument('<spec>', 'specification file or directory')
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .action(async (spec: string, opts: { output?: string }) => {
      setCode(
        await generate(spec, opts.output, io, async (s) => {
          const mod = await importOptional('../doc/renderDoc.ts', 'ninefold doc');
          return callExport(mod, 'renderDoc', 'ninefold doc')(s);
        }),
      );
    });
}

type SqlOptions = { output?: string; stdout?: boolean; lock?: string; target: 'embedded' | 'supabase' };

function registerSql(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('sql')
    .description('write the Postgres migration (tables, RLS policies, checks, transition functions, history)')
    .argument('<spec>', 'specification file or directory')
    .option(
      '-o, --output <file>',
      'write to this file (default: standard output; supabase: supabase/migrations/<UTC timestamp>_ninefold_<app>.sql)',
    )
    .option('--stdout', 'write to standard output (also for --target supabase)')
    .option(
      '--lock <file>',
      'also record the model in this lock file (default for supabase: supabase/ninefold.<app>.lock.json)',
    )
    .addOption(
      new Option('--target <target>', 'where the migration runs')
        .choices(['embedded', 'supabase'])
        .default('embedded'),
    )
    .action(async (spec: string, opts: SqlOptions) => {
      setCode(await sqlCommand(spec, opts, io));
    });
}

/** `ninefold sql`: the migration in one transaction, and for Supabase the lock of its model. */
async function sqlCommand(spec: string, opts: SqlOptions, io: Io): Promise<number> {
  // The Supabase CLI applies supabase/migrations/<timestamp>_*.sql in order: name the file for it.
  const output =
    opts.output ??
    (opts.stdout || opts.target !== 'supabase'
      ? undefined
      : (s: AppSpec) => defaultMigrationPath(s.purpose.name, io.now?.() ?? new Date()));
  let generated: AppSpec | undefined;
  const code = await generate(spec, output, io, async (s) => {
    generated = s;
    const mod = await importOptional('../sql/compileMigration.ts', 'ninefold sql');
    const sql = callExport(mod, 'compileMigration', 'ninefold sql')(s, { target: opts.target });
    // One transaction, as `migrate` writes it: `psql -f` never leaves half a schema.
    const { inTransaction } = await import('./migrateCommand.ts');
    return typeof sql === 'string' ? inTransaction(sql) : sql;
  });
  // A migration written for Supabase records the model it was generated from (ninefold migrate diffs it).
  // With -o the migration goes elsewhere: the lock only with --lock.
  const { lockPathFor, writeLock } = await import('./migrateCommand.ts');
  const lock =
    opts.lock ??
    (opts.target === 'supabase' && !opts.stdout && !opts.output && generated
      ? lockPathFor(generated.purpose.name)
      : undefined);
  if (code === EXIT.ok && generated && lock) {
    await writeLock(generated, opts.target, resolve(io.cwd ?? process.cwd(), lock));
    io.err(`wrote ${lock}\n`);
  }
  return code;
}

/** The printers: one command each, the same shape (a spec in, a text out). */
const PRINTERS = [
  [
    'types',
    'write the TypeScript types of the database (the shape of `supabase gen types typescript`, for createClient<Database>)',
    '../printers/printTypes.ts',
    'printTypes',
  ],
  [
    'openapi',
    'write an OpenAPI 3.1 document of every call (derived and declared) with the catalogue errors (JSON)',
    '../printers/printOpenApi.ts',
    'printOpenApi',
  ],
  [
    'tests',
    'write a pgTAP suite of the permissions, transitions and validation rules (for `supabase test db`)',
    '../printers/printPgTap.ts',
    'printPgTap',
  ],
] as const;

function registerPrinters(program: Command, io: Io, setCode: SetCode): void {
  for (const [name, description, file, fn] of PRINTERS) {
    program
      .command(name)
      .description(description)
      .argument('<spec>', 'specification file or directory')
      .option('-o, --output <file>', 'write to this file instead of standard output')
      .action(async (spec: string, opts: { output?: string }) => {
        setCode(
          await generate(spec, opts.output, io, async (s) => {
            const mod = await importOptional(file, `ninefold ${name}`);
            return callExport(mod, fn, `ninefold ${name}`)(s);
          }),
        );
      });
  }
}

function registerImport(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('import')
    .description(
      'read a nine-point document (Markdown) and write the specification as defineApp(...) TypeScript',
    )
    .argument('<doc>', 'the nine-point document (.md)')
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .option('--json', 'write the specification as JSON instead of TypeScript')
    .action(async (doc: string, opts: { output?: string; json?: boolean }) => {
      setCode(await importCommand(doc, opts, io));
    });
}

function registerInit(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('init')
    .description('create a project whose source is a nine-point document (doc.md, package.json, README)')
    .argument('<dir>', 'the new project folder')
    .addOption(
      new Option('--from <template>', 'start from a blank document or a reference app')
        .choices(['blank', 'helpdesk', 'expenses', 'tasks'])
        .default('blank'),
    )
    .option(
      '--inside-toolkit',
      "create the project even inside the Ninefold toolkit's own folder (it would be committed with it)",
    )
    .action(async (dir: string, opts: InitOptions) => {
      setCode(await initCommand(dir, opts, io));
    });
}

function registerMigrate(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('migrate')
    .description(
      'write the migration from the locked model (supabase/ninefold.<app>.lock.json) to the spec, and the new lock',
    )
    .argument('<spec>', 'specification file or directory')
    .addOption(
      new Option('--target <target>', 'where the migration runs')
        .choices(['embedded', 'supabase'])
        .default('supabase'),
    )
    .option('--lock <file>', 'the lock file (default: supabase/ninefold.<app>.lock.json)')
    .option('--name <word>', 'a word for the file name', 'change')
    .option(
      '-o, --output <file>',
      'write to this file (default: supabase/migrations/<UTC timestamp>_ninefold_<app>_<name>.sql)',
    )
    .option('--stdout', 'print the migration (a preview: the lock is not moved)')
    .option('--allow-destructive', 'allow dropping fields, entities and history (their data is deleted)')
    .addOption(
      new Option(
        '--violations <mode>',
        'existing rows that break a new rule: refuse, or keep them (CHECK added NOT VALID)',
      )
        .choices(['refuse', 'keep'])
        .default('refuse'),
    )
    .option('--check', 'run the migration on a database in a transaction, report, roll back; write nothing')
    .option('--database-url <url>', 'the database for --check (default: DATABASE_URL)')
    .action(async (spec: string, opts: MigrateOptions) => {
      setCode(await migrateCommand(spec, opts, io));
    });
}

/** `ninefold migrate`: refuses a specification with errors, then hands over to migrateCommand.ts. */
async function migrateCommand(spec: string, opts: MigrateOptions, io: Io): Promise<number> {
  const loaded = await loadSpec(spec);
  const refused = refuse(loaded, io);
  if (refused !== null || !loaded.ok) return refused ?? EXIT.failed;
  const { migrate } = await import('./migrateCommand.ts');
  return migrate(loaded.spec, opts, {
    out: io.out,
    err: io.err,
    now: io.now ?? (() => new Date()),
    cwd: io.cwd ?? process.cwd(),
  });
}

function registerRun(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('dev')
    .description('run the app for a specification in a development server')
    .argument('<spec>', 'specification file or directory')
    .action(async (spec: string) => {
      const refused = await refuseBeforeRun(spec, io);
      setCode(refused);
      if (refused !== EXIT.ok) return;
      const mod = await importOptional('./devServer.ts', 'ninefold dev');
      const result: unknown = await callExport(mod, 'dev', 'ninefold dev')(spec);
      setCode(typeof result === 'number' ? result : EXIT.ok);
    });

  program
    .command('build')
    .description('build the app for a specification into static files')
    .argument('[spec]', 'specification file or directory')
    .option('-o, --out-dir <dir>', 'output directory', 'dist')
    .option('--studio', 'build Ninefold Studio instead, starting from this document (or the blank template)')
    .action(async (spec: string | undefined, opts: { outDir: string; studio?: boolean }) => {
      if (opts.studio) {
        setCode(await buildStudioCommand(spec, opts.outDir, io));
        return;
      }
      if (spec === undefined) {
        io.err("error: missing required argument 'spec'\n(add --help for usage)\n");
        setCode(EXIT.failed);
        return;
      }
      const refused = await refuseBeforeRun(spec, io);
      setCode(refused);
      if (refused !== EXIT.ok) return;
      const mod = await importOptional('./devServer.ts', 'ninefold build');
      const result: unknown = await callExport(mod, 'build', 'ninefold build')(spec, opts.outDir, io.out);
      setCode(typeof result === 'number' ? result : EXIT.ok);
    });

  program
    .command('preview')
    .description('serve a built app (the folder ninefold build wrote) on this machine')
    .argument('[dir]', 'the built app', 'dist')
    .option('--port <port>', 'the port (the next free one if it is taken)', '4173')
    .action(async (dir: string, opts: { port: string }) => {
      const { preview } = await import('./devServer.ts');
      setCode(await preview(resolve(io.cwd ?? process.cwd(), dir), Number(opts.port), io.out));
    });
}

const COMMANDS: readonly Register[] = [
  registerCheck,
  registerDoc,
  registerSql,
  registerPrinters,
  registerImport,
  registerInit,
  registerMigrate,
  registerRun,
  registerStudio,
];

/** `ninefold build --studio [doc]`: the static studio, and how to serve it. */
async function buildStudioCommand(doc: string | undefined, outDir: string, io: Io): Promise<number> {
  const { buildStudio } = await import('./studioServer.ts');
  await buildStudio(doc, outDir, io.cwd ?? process.cwd());
  io.out(
    `✓ Ninefold Studio${doc ? ` on ${doc}` : ''} built into ${outDir}: npx ninefold preview ${outDir}\n`,
  );
  return EXIT.ok;
}

function registerStudio(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('studio')
    .description('edit a nine-point document in the browser, with its diagnostics and the live app beside it')
    .argument(
      '[doc]',
      'the nine-point document (.md) or a spec folder (default: doc.md, else the blank template)',
    )
    .option('--port <port>', 'the port (the next free one if it is taken)', '5180')
    .action(async (doc: string | undefined, opts: { port: string }) => {
      const { studio } = await import('./studioServer.ts');
      const { url } = await studio(doc, { port: Number(opts.port), cwd: io.cwd ?? process.cwd() });
      io.out(`Ninefold Studio: ${doc ?? 'doc.md'} at ${url} (saving writes the file; Ctrl+C stops it)\n`);
      setCode(EXIT.ok);
    });
}

type InitOptions = { from: 'blank' | 'helpdesk' | 'expenses' | 'tasks'; insideToolkit?: boolean };

/** `ninefold init`: the project, where its `ninefold` comes from, and the next command to type. */
async function initCommand(dir: string, opts: InitOptions, io: Io): Promise<number> {
  const { initProject } = await import('../import/initProject.ts');
  const r = await initProject(resolve(io.cwd ?? process.cwd(), dir), opts.from, {
    insideToolkit: opts.insideToolkit === true,
  });
  if (!r.ok) {
    io.err(`✗ ${r.code}: ${r.message}\n`);
    return EXIT.failed;
  }
  io.out(`✓ created ${dir} from ${opts.from}: doc.md, package.json, README.md, .gitignore\n`);
  io.out(`  package.json depends on ninefold from ${r.dependency.from} ("${r.dependency.spec}")\n`);
  if (r.dependency.linked)
    io.out('  npm links that folder into node_modules: keep it where it is, with its own npm install done\n');
  io.out(`  next: cd ${dir} && npm install && npx ninefold dev doc.md\n`);
  return EXIT.ok;
}

/** `ninefold import`: problems at line and column on stderr, the module on stdout or in a file. */
async function importCommand(
  doc: string,
  opts: { output?: string; json?: boolean },
  io: Io,
): Promise<number> {
  const { runImport } = await import('../import/importCommand.ts');
  const cwd = io.cwd ?? process.cwd();
  const r = await runImport(doc, { ...opts, cwd });
  for (const line of r.lines) io.err(`${line}\n`);
  if (r.text === undefined) {
    io.err(`✗ ${doc}: ${r.code === EXIT.failed ? 'could not be read' : 'has errors; nothing written'}\n`);
    return r.code;
  }
  if (opts.output === undefined) io.out(r.text);
  else {
    const file = resolve(cwd, opts.output);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, r.text);
    io.err(`wrote ${displayPath(file)}\n`);
  }
  return r.code;
}

/**
 * `dev` and `build` run only on a specification `check` accepts. A document's problems are said
 * once, at their lines (its import runs the same validation and lints as `check`).
 */
async function refuseBeforeRun(spec: string, io: Io): Promise<number> {
  const { isDocPath } = await import('../import/loadDoc.ts');
  return isDocPath(spec) ? ((await refuseDoc(spec, io)) ?? EXIT.ok) : refuseUnchecked(spec, io);
}

/** For a nine-point document: its problems, positioned, and the exit code when it cannot be built. */
async function refuseDoc(spec: string, io: Io): Promise<number | null> {
  const { isDocPath } = await import('../import/loadDoc.ts');
  if (!isDocPath(spec)) return null;
  const { runImport } = await import('../import/importCommand.ts');
  const r = await runImport(spec, { cwd: io.cwd ?? process.cwd() });
  for (const line of r.lines) io.err(`${line}\n`);
  if (r.code === EXIT.ok) return null;
  io.err(`✗ ${spec}: ${r.code === EXIT.failed ? 'could not be read' : 'has errors; run ninefold check'}\n`);
  return r.code;
}

async function check(specPath: string, json: boolean, io: Io): Promise<number> {
  const loaded = await loadSpec(specPath);
  const diagnostics = loaded.ok ? [...loaded.diagnostics, ...lintSpec(loaded.spec)] : loaded.diagnostics;
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const code = !loaded.ok && loaded.kind === 'load' ? EXIT.failed : errors > 0 ? EXIT.invalid : EXIT.ok;
  if (json) {
    io.out(`${JSON.stringify({ ok: code === EXIT.ok, errors, warnings, diagnostics }, null, 2)}\n`);
    return code;
  }
  for (const d of diagnostics) io.out(`${formatLine(d)}\n`);
  const where = displayPath(loaded.ok ? loaded.path : specPath);
  if (code === EXIT.failed) io.out(`✗ ${where}: could not be loaded\n`);
  else if (diagnostics.length === 0) io.out(`✓ ${where}: no problems found\n`);
  else
    io.out(`${errors > 0 ? '✗' : '✓'} ${where}: ${count(errors, 'error')}, ${count(warnings, 'warning')}\n`);
  return code;
}

/**
 * `dev` and `build` run only on a specification `check` accepts: the same diagnostics (lints
 * included), printed the same way, and the same exit code when there are errors.
 */
async function refuseUnchecked(specPath: string, io: Io): Promise<number> {
  const loaded = await loadSpec(specPath);
  const diagnostics = loaded.ok ? [...loaded.diagnostics, ...lintSpec(loaded.spec)] : loaded.diagnostics;
  for (const d of diagnostics) io.err(`${formatLine(d)}\n`);
  if (!loaded.ok && loaded.kind === 'load') {
    io.err('✗ the specification could not be loaded; run ninefold check\n');
    return EXIT.failed;
  }
  if (diagnostics.some((d) => d.severity === 'error')) {
    io.err('✗ the specification has errors; run ninefold check\n');
    return EXIT.invalid;
  }
  return EXIT.ok;
}

/** Loads a spec, refuses it when it has errors, and writes what `render` makes of it. */
async function generate(
  specPath: string,
  output: string | undefined | ((spec: AppSpec) => string),
  io: Io,
  render: (spec: AppSpec) => Promise<unknown>,
): Promise<number> {
  const loaded = await loadSpec(specPath);
  const refused = refuse(loaded, io);
  if (refused !== null || !loaded.ok) return refused ?? EXIT.failed;
  const text = await render(loaded.spec);
  if (typeof text !== 'string') throw new CliFailure('the generator returned no text');
  const target = typeof output === 'function' ? output(loaded.spec) : output;
  if (target === undefined) {
    io.out(text.endsWith('\n') ? text : `${text}\n`);
  } else {
    const file = resolve(io.cwd ?? process.cwd(), target);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    io.err(`wrote ${displayPath(file)}\n`);
  }
  return EXIT.ok;
}

/** Prints why a specification cannot be used and returns the exit code, or null when it can. */
function refuse(loaded: LoadResult, io: Io): number | null {
  if (loaded.ok) {
    // Warnings do not stop generation, but the user should still see them.
    for (const d of loaded.diagnostics) io.err(`${formatLine(d)}\n`);
    return null;
  }
  for (const d of loaded.diagnostics) io.err(`${formatLine(d)}\n`);
  io.err(
    `✗ the specification ${loaded.kind === 'load' ? 'could not be loaded' : 'has errors'}; run ninefold check\n`,
  );
  return loaded.kind === 'load' ? EXIT.failed : EXIT.invalid;
}

/**
 * Imports a module of this package that may not exist yet (the generators are built in
 * parallel). The specifier is a variable so the type checker does not require the file.
 */
async function importOptional(specifier: string, command: string): Promise<Record<string, unknown>> {
  const file = fileURLToPath(new URL(specifier, import.meta.url));
  if (!existsSync(file)) {
    throw new CliFailure(`${command} is not available yet (${displayPath(file)} is missing)`);
  }
  const mod: unknown = await import(specifier);
  return mod as Record<string, unknown>;
}

/** The generators' signatures are checked where they are defined; here they are only called. */
type Fn = (...args: unknown[]) => unknown;

function callExport(mod: Record<string, unknown>, name: string, command: string): Fn {
  const fn = mod[name];
  if (typeof fn !== 'function') throw new CliFailure(`${command} is not available yet (no export "${name}")`);
  return fn as Fn;
}

/** `error states.ticket.transitions.solve.guard: unknown name "asignee" — did you mean "assignee"?` */
export function formatLine(d: Diagnostic): string {
  const at = d.at ? ` (line ${d.at.line}, column ${d.at.column})` : '';
  return `${d.severity} ${d.path === '' ? '(specification)' : d.path}${at}: ${d.message}${d.hint ? ` — ${d.hint}` : ''}`;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function displayPath(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel === '' ? '.' : rel.startsWith('..') ? file : rel;
}

function packageVersion(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const version = (pkg as { version?: unknown }).version;
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function oneLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n')[0] ?? 'unknown error';
}
