import { useId as useReactId } from 'react';

// Mantine's `useId` (@mantine/hooks 9, MIT) starts from React's id and then, in a layout effect,
// swaps it for a random one. That is a state update in every Checkbox, input, Tooltip, Popover
// and Menu as it mounts: a second, synchronous render of each, in the same task as the first
// commit, so the browser cannot paint the first screen until it is done (on the helpdesk's list,
// one long task of 0.3–0.6 s on 2 cores). The random id was for server rendering with React
// versions before `useId`; this app renders on the client with React 19, whose id is unique in
// the root and stable across renders. The build gives @mantine/hooks this copy
// (src/cli/firstScreenShimsPlugin.ts).

/** An element id: `staticId` when given, else one derived from React's `useId`. */
export function useId(staticId?: string): string {
  const reactId = useReactId();
  if (typeof staticId === 'string') return staticId;
  // React's ids may hold characters a CSS selector would need escaped («r1», :r1:).
  return `mantine-${reactId.replace(/[^A-Za-z0-9_-]/g, '')}`;
}
