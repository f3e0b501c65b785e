import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { demoAccounts } from '../src/backend/embedded/demo/demoAccounts.ts';
import type { Backend } from '../src/backend/types.ts';
import { NinefoldApp } from '../src/react/NinefoldApp.tsx';
import type { AppSpec } from '../src/spec/types.ts';

/** Renders the app into `root`: React, Mantine and the router, their own chunk (see main.tsx). */
export function renderApp(root: HTMLElement, spec: AppSpec, backend: Backend): void {
  createRoot(root).render(
    <StrictMode>
      <NinefoldApp
        spec={spec}
        backend={backend}
        // Demo accounts exist only in the embedded database; a hosted project has real users. The
        // build-time constant lets a hosted build drop the demo code (see startBackend.ts).
        demoAccounts={
          import.meta.env.VITE_NINEFOLD_BACKEND !== 'supabase' && backend.kind === 'embedded'
            ? demoAccounts(spec)
            : []
        }
      />
    </StrictMode>,
  );
}
