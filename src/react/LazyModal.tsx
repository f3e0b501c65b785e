import type { ModalProps } from '@mantine/core';
import { Suspense, useState } from 'react';
import { lazyComponent } from './lazyComponent.ts';

const Modal = lazyComponent(() => import('./modalChunk.ts').then((m) => m.Modal));

/**
 * Mantine's Modal for a dialog the list screen opens only on request (useConfirm, a bulk action's
 * confirmation). Modal imports ScrollArea, which imports floating-ui: statically, that put
 * floating-ui (about 12 KB gzip) on the first screen's path. It loads when the dialog first
 * opens, then stays mounted so closing animates as before.
 */
export function LazyModal(props: ModalProps) {
  const [wanted, setWanted] = useState(props.opened);
  // Set during render (React's documented way to derive state from a prop change).
  if (props.opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Modal {...props} />
    </Suspense>
  );
}
