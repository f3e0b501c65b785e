import { defineConfig } from 'vite';
import { resolveSpecFile, viteConfig } from './src/cli/devServer.ts';

// `npx vite` / `npx vite build` with NINEFOLD_SPEC=examples/expenses picks another spec.
export default defineConfig(async () => {
  const { configFile: _ignored, ...config } = await viteConfig(
    resolveSpecFile(process.env.NINEFOLD_SPEC ?? 'examples/helpdesk'),
  );
  return config;
});
