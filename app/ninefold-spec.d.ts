/// <reference types="vite/client" />
declare module 'virtual:ninefold-spec' {
  import type { AppSpec } from '../src/spec/types.ts';

  const spec: AppSpec;
  export default spec;
}
