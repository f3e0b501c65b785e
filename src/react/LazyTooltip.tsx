import { lazy, type ReactElement, type ReactNode, Suspense } from 'react';

const Tooltip = lazy(() => import('./tooltipChunk.ts').then((m) => ({ default: m.Tooltip })));

/**
 * Mantine's Tooltip for hints inside list rows (a date's exact time): until its chunk (Tooltip
 * with floating-ui, also loaded by the header's menus) arrives the child shows alone, so the
 * first rows do not wait for it; then the same child gets its tooltip.
 */
export function LazyTooltip({ label, children }: { label: ReactNode; children: ReactElement }) {
  return (
    <Suspense fallback={children}>
      <Tooltip label={label}>{children}</Tooltip>
    </Suspense>
  );
}
