import { Button, Checkbox, Popover, Stack, Text } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useState } from 'react';
import { ui } from '../runtime/uiText.ts';

const key = (screen: string) => `ninefold-columns:${screen}`;

/**
 * The columns a person chose to see on a list screen (the screen's columns, in the spec's order,
 * without those they hid), kept per screen in this browser (localStorage). At least one stays.
 */
export function useChosenColumns(screen: string, columns: readonly string[]) {
  const [hidden, setHidden] = useState<string[]>(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(key(screen)) ?? '[]');
      return Array.isArray(saved) ? saved.filter((c): c is string => typeof c === 'string') : [];
    } catch {
      return [];
    }
  });
  const shown = columns.filter((c) => !hidden.includes(c));
  const toggle = (column: string) => {
    const next = hidden.includes(column) ? hidden.filter((c) => c !== column) : [...hidden, column];
    if (columns.every((c) => next.includes(c))) return;
    setHidden(next);
    try {
      localStorage.setItem(key(screen), JSON.stringify(next));
    } catch {
      // Storage blocked: the choice lasts for this visit.
    }
  };
  return { shown: shown.length > 0 ? shown : [...columns], hidden, toggle };
}

/**
 * The "Columns" button: a popover with one checkbox per column of the screen (real checkboxes, so
 * a screen reader says which are shown); the last one shown cannot be unticked.
 */
export function ColumnChooser(props: {
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
}
