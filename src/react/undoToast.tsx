import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck } from '@tabler/icons-react';
import { ui } from '../runtime/uiText.ts';
import { hidePending, showPending } from './pendingDeletes.ts';

/** How long a toast offers Undo (react-admin's undoable mode waits about as long). */
export const UNDO_MS = 6_000;

/**
 * A toast saying what happened with an Undo button for `UNDO_MS`. `undo` runs when pressed;
 * `commit` (if any) when the toast goes without it — closed, or its time up.
 */
export function notifyWithUndo(props: {
  message: string;
  undo(): void | Promise<void>;
  commit?(): void | Promise<void>;
}): void {
  let undone = false;
  const id = notifications.show({
    color: 'teal',
    icon: <IconCheck size={16} />,
    autoClose: UNDO_MS,
    closeButtonProps: { 'aria-label': ui('close') },
    onClose: () => {
      if (!undone) void props.commit?.();
    },
    message: (
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm">{props.message}</Text>
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => {
            undone = true;
            notifications.hide(id);
            void props.undo();
          }}
        >
          {ui('undo')}
        </Button>
      </Group>
    ),
  });
}

/**
 * Deletes a row the undoable way: hidden at once, sent to the server only when the toast goes
 * without Undo (so Undo needs no re-creation, which rules and history could not allow).
 */
export function deleteWithUndo(props: {
  id: string;
  message: string;
  send(): Promise<unknown>;
  onUndo(): void;
  onError(e: unknown): void;
}): void {
  hidePending(props.id);
  notifyWithUndo({
    message: props.message,
    undo: () => {
      showPending(props.id);
      props.onUndo();
    },
    commit: async () => {
      try {
        await props.send();
      } catch (e) {
        props.onError(e);
      } finally {
        showPending(props.id);
      }
    },
  });
}
