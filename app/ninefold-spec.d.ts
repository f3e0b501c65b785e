/// <reference types="vite/client" />
declare module 'virtual:ninefold-spec' {
  import type { AppSpec } from '../src/spec/types.ts';

  const spec: AppSpec;
  export default spec;
  /** Settles once the app's demo (its own chunk) is registered with `spec`; at once without one. */
  export const demoLoaded: Promise<void>;
  /** Puts the texts of `locale` into `spec.translations` (a build's own chunk per language). */
  export function translationsLoaded(locale: string): Promise<void>;
}
