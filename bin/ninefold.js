#!/usr/bin/env node
// The `ninefold` command. It runs from the TypeScript sources the package ships (the library's
// JavaScript in dist/ is for importers; see docs/decisions.md), loaded through jiti, which compiles
// them on the fly, also from node_modules.
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url);

// `ninefold sql ... | head` closes the pipe early; that is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

try {
  const { main } = await jiti.import('../src/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`ninefold: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
  process.exitCode = 2;
}
