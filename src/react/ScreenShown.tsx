import { useLayoutEffect } from 'react';
import { screenShown } from '../runtime/screenPreview.ts';

/**
 * Rendered beside a screen, inside the screen's Suspense boundary: in the commit that first draws
 * the screen itself (not its loading fallback), it takes away the picture of the last visit's
 * screen shown over the app (src/runtime/screenPreview.ts), before the browser paints, so the
 * picture and the live screen never show one after another with a gap between them. The screen
 * may then be pictured for the next visit (src/react/startMemory.ts).
 */
export function ScreenShown(): null {
  useLayoutEffect(() => screenShown(), []);
  return null;
}
