// The dynamic import's own module (LazyTooltip.tsx): importing `@mantine/core` there would be the
// package every screen imports statically, and Tooltip (with floating-ui) would stay on the path.
export { Tooltip } from '@mantine/core';
