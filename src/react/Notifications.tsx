import type { NotificationsProps } from '@mantine/notifications';
import { lazy, Suspense } from 'react';

// Mantine's toast container (with its transitions and scroll-lock helpers, about 12 KB gzip) is
// not needed for the first screen: it loads as its own chunk. Toasts shown before it arrives wait
// in Mantine's store (`notifications.show` does not need the container) and appear when it does.
const Container = lazy(() => import('./toastContainer.ts').then((m) => ({ default: m.ToastContainer })));

/** Mantine's `Notifications`, loaded after the first screen. */
export function Notifications(props: NotificationsProps) {
  return (
    <Suspense fallback={null}>
      <Container {...props} />
    </Suspense>
  );
}
