import { type ReactNode, StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { demoAccounts } from '../src/backend/embedded/demo/demoAccounts.ts';
import type { Backend } from '../src/backend/types.ts';
import { NinefoldApp } from '../src/react/NinefoldApp.tsx';
import { currentLocale } from '../src/runtime/locale.ts';
import { localizeSpec } from '../src/spec/localizeSpec.ts';
import type { AppSpec } from '../src/spec/types.ts';

/** Calls `onCommit` after each commit of its children (the new spec is on screen). */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(() => onCommit());
  return children;
}

/**
 * The studio's live app in `root`, on `backend`, rendered again in place for each new spec: one
 * React root for the pane's lifetime, so a valid edit re-renders the app with the new model (its
 * queries read again, NinefoldApp.tsx) instead of reloading the page. `show` resolves once the new
 * spec is committed.
 *
 * @example
 * const app = mountLiveApp(root, backend); await app.show(spec); … await app.show(edited);
 */
export function mountLiveApp(root: HTMLElement, backend: Backend) {
  const reactRoot = createRoot(root);
  return {
    show(original: AppSpec): Promise<void> {
      // The UI reads the spec in the person's language, the backend the original (as renderApp).
      const spec = localizeSpec(original, currentLocale());
      return new Promise((resolve) =>
        reactRoot.render(
          <StrictMode>
            <Committed onCommit={resolve}>
              <NinefoldApp spec={spec} backend={backend} demoAccounts={demoAccounts(spec)} />
            </Committed>
          </StrictMode>,
        ),
      );
    },
    unmount: () => reactRoot.unmount(),
  };
}
