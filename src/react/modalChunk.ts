// The dynamic import's own module (LazyModal.tsx): importing `@mantine/core` there would be the
// package every screen imports statically, and Modal would stay on the first screen's path.
export { Modal } from '@mantine/core';
