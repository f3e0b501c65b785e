declare module 'virtual:ninefold-snapshot' {
  import type { SnapshotInfo } from '../src/cli/snapshotPlugin.ts';

  const snapshot: SnapshotInfo;
  export default snapshot;
}

declare module 'virtual:ninefold-demo-screens' {
  import type { RememberedStart } from '../src/runtime/rememberedStart.ts';

  /** Each demo account's first screens by email (src/react/demoScreens.ts); null without a snapshot. */
  const screens: Record<string, RememberedStart> | null;
  export default screens;
}
