import { Box, Text } from '@mantine/core';
import { PlainSkeleton } from './PlainText.tsx';

/**
 * A filter's label over an empty box of its size, hidden from assistive technology: what a list
 * shows in a filter's place until its `Select` is mounted (ListScreen.tsx, ListFilters.tsx).
 */
export function FilterPlaceholder({ label }: { label: string }) {
  return (
    <Box aria-hidden="true" style={{ flex: '0 1 170px' }}>
      <Text size="sm" fw={500} c="dimmed">
        {label}
      </Text>
      <PlainSkeleton height={36} radius="sm" animate={false} />
    </Box>
  );
}
