// The dynamic import's own module (ListScreen.tsx): importing `@mantine/core` there would be the
// package every screen imports statically, and Pagination would stay on the first rows' path.
export { Pagination } from '@mantine/core';
