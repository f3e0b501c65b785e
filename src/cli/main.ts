import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { lintSpec } from '../check/lintSpec.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { type LoadResult, loadSpec } from '../spec/loadSpec.ts';
import type { AppSpec } from '../spec/types.ts';
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
  const program = new Command('ninefold')
    .description('Turn one nine-section application specification into an app, a migration and a document.')
    .version(packageVersion(), '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err, outputError: (text, write) => write(text) })
    .showHelpAfterError('(add --help for usage)');

  program
    .command('check')
    .description(
      'load, validate and lint a specification (.ts, .json, or a directory with spec.ts/spec.json)',
    )
    .argument('<spec>', 'specification file or directory')
    .option('--json', 'print { ok, errors, warnings, diagnostics } as JSON')
    .action(async (spec: string, opts: { json?: boolean }) => {
      code = await check(spec, opts.json === true, io);
    });

  program
    .command('doc')
    .description('write the nine-point specification document (Markdown)')
    .argument('<spec>', 'specification file or directory')
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .action(async (spec: string, opts: { output?: string }) => {
      code = await generate(spec, opts.output, io, async (s) => {
        const mod = await importOptional('../doc/renderDoc.ts', 'ninefold doc');
        return callExport(mod, 'renderDoc', 'ninefold doc')(s);
      });
    });

  program
    .command('sql')
    .description('write the Postgres migration (tables, RLS policies, checks, transition functions, history)')
    .argument('<spec>', 'specification file or directory')
    .option(
      '-o, --output <file>',
      'write to this file (default: standard output; supabase: supabase/migrations/<UTC timestamp>_ninefold_<app>.sql)',
    )
    .option('--stdout', 'write to standard output (also for --target supabase)')
    .addOption(
      new Option('--target <target>', 'where the migration runs')
        .choices(['embedded', 'supabase'])
        .default('embedded'),
    )
    .action(
      async (spec: string, opts: { output?: string; stdout?: boolean; target: 'embedded' | 'supabase' }) => {
        // The Supabase CLI applies supabase/migrations/<timestamp>_*.sql in order: name the file for it.
        const output =
          opts.output ??
          (opts.stdout || opts.target !== 'supabase'
            ? undefined
            : (s: AppSpec) => defaultMigrationPath(s.purpose.name, io.now?.() ?? new Date()));
        code = await generate(spec, output, io, async (s) => {
          const mod = await importOptional('../sql/compileMigration.ts', 'ninefold sql');
          return callExport(mod, 'compileMigration', 'ninefold sql')(s, { target: opts.target });
        });
      },
    );

  for (const [name, description, file, fn] of [
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
  ] as const) {
    program
      .command(name)
      .description(description)
      .argument('<spec>', 'specification file or directory')
      .option('-o, --output <file>', 'write to this file instead of standard output')
      .action(async (spec: string, opts: { output?: string }) => {
        code = await generate(spec, opts.output, io, async (s) => {
          const mod = await importOptional(file, `ninefold ${name}`);
          return callExport(mod, fn, `ninefold ${name}`)(s);
        });
      });
  }

  program
    .command('dev')
    .description('run the app for a specification in a development server')
    .argument('<spec>', 'specification file or directory')
    .action(async (spec: string) => {
      const mod = await importOptional('./devServer.ts', 'ninefold dev');
      const result: unknown = await callExport(mod, 'dev', 'ninefold dev')(spec);
      code = typeof result === 'number' ? result : EXIT.ok;
    });

  program
    .command('build')
    .description('build the app for a specification into static files')
    .argument('<spec>', 'specification file or directory')
    .option('-o, --out-dir <dir>', 'output directory', 'dist')
    .action(async (spec: string, opts: { outDir: string }) => {
      const mod = await importOptional('./devServer.ts', 'ninefold build');
      const result: unknown = await callExport(mod, 'build', 'ninefold build')(spec, opts.outDir);
      code = typeof result === 'number' ? result : EXIT.ok;
    });

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
  return `${d.severity} ${d.path === '' ? '(specification)' : d.path}: ${d.message}${d.hint ? ` — ${d.hint}` : ''}`;
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
