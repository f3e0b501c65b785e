import type { NotificationsProps } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { afterFirstScreen } from './afterFirstScreen.ts';
import { lazyComponent } from './lazyComponent.ts';

// Mantine's toast container (with its transitions and scroll-lock helpers, about 12 KB gzip) is
// not needed for the first screen: it loads as its own chunk. Toasts shown before it arrives wait
// in Mantine's store (`notifications.show` does not need the container) and appear when it does.
const Container = lazyComponent(() => import('./toastContainer.ts').then((m) => m.ToastContainer));

/**
 * Mantine's `Notifications`, mounted once the app's first screen is painted (afterFirstScreen.ts)
 * and its chunk is here.
 * Mounted with the app, its chunk loaded and ran in the middle of the first screen's render
 * (react-remove-scroll's set-up among it); and a Suspense fallback shown for it would hold back
 * the next screen's reveal (React throttles reveals to 300 ms after any fallback, lazyComponent.ts).
 */
export function Notifications(props: NotificationsProps) {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    void afterFirstScreen()
      .then(() => Container.preload())
      .then(
        () => live && setLoaded(true),
        () => undefined, // Offline: no toasts this visit rather than a broken app.
      );
    return () => {
      live = false;
    };
  }, []);
  return loaded ? <Container {...props} /> : null;
}
