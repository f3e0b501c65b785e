import { defineConfig } from 'vite';
import { resolveSpecFile, viteConfig } from './src/cli/devServer.ts';

// `npx vite` / `npx vite build` with NINEFOLD_SPEC=examples/expenses picks another spec.
// The backend comes from VITE_NINEFOLD_BACKEND etc. (`.env` files; see docs/hosting.md).
export default defineConfig(async ({ mode }) => {
  const { configFile: _ignored, ...config } = await viteConfig(
    resolveSpecFile(process.env.NINEFOLD_SPEC ?? 'examples/helpdesk'),
    'dist',
    mode,
  );
  return config;
});
