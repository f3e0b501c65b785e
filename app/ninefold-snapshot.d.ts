declare module 'virtual:ninefold-snapshot' {
  import type { SnapshotInfo } from '../src/cli/snapshotPlugin.ts';

  const snapshot: SnapshotInfo;
  export default snapshot;
}
