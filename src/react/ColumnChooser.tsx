import { Button, Checkbox, Menu } from '@mantine/core';
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

/** The "Columns" menu: one checkbox per column of the screen. */
export function ColumnChooser(props: {
  columns: readonly string[];
  label(column: string): string;
  chosen: ReturnType<typeof useChosenColumns>;
}) {
  const { chosen } = props;
  return (
    <Menu position="bottom-end" closeOnItemClick={false}>
      <Menu.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          {ui('columns')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{ui('chooseColumns')}</Menu.Label>
        {props.columns.map((c) => {
          const on = !chosen.hidden.includes(c);
          return (
            <Menu.Item
              key={c}
              role="menuitemcheckbox"
              aria-checked={on}
              // The last column shown stays: a list with no column would show nothing.
              disabled={on && chosen.shown.length === 1}
              onClick={() => chosen.toggle(c)}
              leftSection={<Checkbox checked={on} readOnly tabIndex={-1} size="xs" aria-hidden />}
            >
              {props.label(c)}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
