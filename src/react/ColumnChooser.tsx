import { Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { memo } from 'react';
import { ui } from '../runtime/uiText.ts';
import type { useChosenColumns } from './useChosenColumns.ts';

/**
 * The "Columns" button: a popover with one checkbox per column of the screen (real checkboxes, so
 * a screen reader says which are shown); the last one shown cannot be unticked. Its own chunk
 * (Mantine's Popover and floating-ui): the list's first rows do not wait for it.
 */
export const ColumnChooser = memo(function ColumnChooser(props: {
  columns: readonly string[];
  label(column: string): string;
  chosen: ReturnType<typeof useChosenColumns>;
}) {
  const { chosen } = props;
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          {ui('columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label={ui('chooseColumns')}>
          <Text size="sm" fw={600}>
            {ui('chooseColumns')}
          </Text>
          {props.columns.map((c) => {
            const on = !chosen.hidden.includes(c);
            return (
              <Checkbox
                key={c}
                label={props.label(c)}
                checked={on}
                disabled={on && chosen.shown.length === 1}
                onChange={() => chosen.toggle(c)}
              />
            );
          })}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
});
