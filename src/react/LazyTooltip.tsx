import { cloneElement, type ReactElement, type ReactNode, Suspense, useState } from 'react';
import { lazyComponent } from './lazyComponent.ts';

const Tooltip = lazyComponent(() => import('./tooltipChunk.ts').then((m) => m.Tooltip));

/** What a hint's child needs to be told about the pointer (a row's date is a plain span). */
type Hoverable = ReactElement<{ onMouseEnter?: () => void; onMouseLeave?: () => void }>;

/**
 * Mantine's Tooltip for hints inside list rows (a date's exact time), made only when the pointer
 * first comes over the child. A Tooltip at mount is a portal, a floating-ui reference and a
 * transition, each setting state in a layout effect: for every row of a page that was a second
 * synchronous render before the first rows could paint. So the child shows alone until hovered;
 * from then on it opens and closes its tooltip itself (hover, as Mantine's default), and until
 * the tooltip's chunk (Tooltip with floating-ui, also loaded by the header's menus) arrives the
 * child still shows alone.
 */
export function LazyTooltip({ label, children }: { label: ReactNode; children: Hoverable }) {
  // undefined: never hovered, no tooltip made yet.
  const [opened, setOpened] = useState<boolean | undefined>(undefined);
  const child = cloneElement(children, {
    onMouseEnter: () => setOpened(true),
    onMouseLeave: () => setOpened(false),
  });
  if (opened === undefined) return child;
  return (
    <Suspense fallback={child}>
      <Tooltip label={label} opened={opened} events={{ hover: false, focus: false, touch: false }}>
        {child}
      </Tooltip>
    </Suspense>
  );
}
