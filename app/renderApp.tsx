import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { demoAccounts } from '../src/backend/embedded/demo/demoAccounts.ts';
import type { Backend } from '../src/backend/types.ts';
import { modelOf } from '../src/model/modelOf.ts';
import { NinefoldApp, preloadFirstScreen } from '../src/react/NinefoldApp.tsx';
import { currentLocale } from '../src/runtime/locale.ts';
import type { RememberedStart, StartMemoryTarget } from '../src/runtime/rememberedStart.ts';
import { localizeSpec } from '../src/spec/localizeSpec.ts';
import type { AppSpec } from '../src/spec/types.ts';

/**
 * Renders the app into `root`: React, Mantine and the router, their own chunk (see main.tsx).
 * Returns how to take it down again (the database failed to open after it was shown).
 */
export function renderApp(
  root: HTMLElement,
  original: AppSpec,
  backend: Backend,
  startMemory: StartMemoryTarget | null = null,
  remembered: RememberedStart | null = null,
  demoScreens?: () => Promise<Record<string, RememberedStart> | null>,
): () => void {
  // The UI reads the spec in the person's language; the backend keeps the original (names and
  // rules are the same in both, only texts differ).
  const locale = currentLocale();
  const spec = localizeSpec(original, locale);
  const reactRoot = createRoot(root);
  let unmounted = false;
  // The first screen's code first (the sign-in screen, or the router and the list): drawn then
  // without suspending, it shows in the first render's commit. A transition, so React renders the
  // first screen in slices and lets the browser breathe in between (no task of several hundred ms
  // before the first paint); the commit is the same.
  const draw = () =>
    !unmounted &&
    startTransition(() =>
      reactRoot.render(
        <StrictMode>
          <NinefoldApp
            spec={spec}
            backend={backend}
            startMemory={startMemory}
            remembered={remembered}
            {...(demoScreens ? { demoScreens } : {})}
            // Demo accounts exist only in the embedded database; a hosted project has real users. The
            // build-time constant lets a hosted build drop the demo code (see startBackend.ts).
            demoAccounts={
              import.meta.env.VITE_NINEFOLD_BACKEND !== 'supabase' && backend.kind === 'embedded'
                ? demoAccounts(spec)
                : []
            }
          />
        </StrictMode>,
      ),
    );
  void preloadFirstScreen(modelOf(spec), remembered, location.pathname).then(draw);
  return () => {
    unmounted = true;
    reactRoot.unmount();
  };
}
