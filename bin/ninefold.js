#!/usr/bin/env node
// The `ninefold` command. The package ships TypeScript sources (no build step), so the
// command line is loaded through jiti, which compiles it on the fly, also from node_modules.
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
