import { onNextScreenDrawn, screenOnItsWay } from './screenPreview.ts';

/**
 * Calls `release` once the app's next screen is drawn and painted, and after any screen announced
 * meanwhile as on its way (`screenComing`: a demo account's first screens, which need no
 * database) is drawn and painted too; after `atMost` ms whatever happened. The page releases the
 * held backend worker with it (app/main.tsx, src/backend/embedded/browser/workerHold.ts): the
 * worker's start took the cores those screens' renders needed.
 *
 * @example
 * releaseWhenDrawn(workerRelease(worker), 1_500);
 */
export function releaseWhenDrawn(release: () => void, atMost: number): void {
  const afterPaint = () =>
    requestAnimationFrame(() =>
      setTimeout(() => {
        const coming = screenOnItsWay();
        if (coming) void coming.then(afterPaint);
        else release();
      }, 0),
    );
  onNextScreenDrawn(afterPaint);
  setTimeout(release, atMost);
}
