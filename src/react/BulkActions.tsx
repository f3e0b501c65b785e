import { Button, Card, Group, List, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Row } from '../backend/types.ts';
import { bulkTransitions } from '../runtime/bulkTransitions.ts';
import { ui } from '../runtime/uiText.ts';
import { useRuntime } from './context.ts';
import { errorMessage, notifyOk, rowTitle } from './display.tsx';
import { invalidateRecomputed, keys } from './hooks.ts';
import { useConfirm } from './pages.tsx';

/**
 * The bar over a list with rows chosen: the transitions that apply to them (no input asked), each
 * run row by row through the server's transition, as for one row; what the server refuses is
 * reported per row, the rest goes through.
 */
export function BulkActions(props: { entity: string; rows: readonly Row[]; onDone(): void }) {
  const { model, user, backend } = useRuntime();
  const qc = useQueryClient();
  const { confirm, confirmDialog } = useConfirm();
  const [busy, setBusy] = useState<string | null>(null);
  const options = bulkTransitions(model, user, props.entity, props.rows);
  const label = model.tables.get(props.entity)?.spec?.label ?? props.entity;

  const run = async (name: string, ids: readonly string[], transitionLabel: string) => {
    setBusy(name);
    const refused: string[] = [];
    let done = 0;
    for (const id of ids) {
      const row = props.rows.find((r) => String(r.id) === id);
      try {
        await backend.data.transition(props.entity, id, name, {}, row?.version as number | undefined);
        done++;
      } catch (e) {
        refused.push(
          ui('errorOnRow', {
            label,
            title: row ? rowTitle(model, props.entity, row) : id,
            message: errorMessage(model, e),
          }),
        );
      }
    }
    await Promise.all([
      qc.invalidateQueries({ queryKey: keys.entity(props.entity) }),
      invalidateRecomputed(qc, model, props.entity),
    ]);
    setBusy(null);
    if (done > 0) notifyOk(ui('bulkDone', { action: transitionLabel, count: done }));
    if (refused.length > 0)
      notifications.show({
        color: 'red',
        autoClose: false,
        closeButtonProps: { 'aria-label': ui('close') },
        title: ui('bulkRefused', { count: refused.length }),
        message: (
          <List size="sm">
            {refused.map((r) => (
              <List.Item key={r}>{r}</List.Item>
            ))}
          </List>
        ),
      });
    props.onDone();
  };

  return (
    <Card withBorder padding="xs" radius="md" aria-label={ui('bulkActions')} role="group">
      <Group gap="sm" wrap="wrap">
        <Text size="sm" fw={600}>
          {ui('selectedRows', { count: props.rows.length })}
        </Text>
        {options.length === 0 && (
          <Text size="sm" c="dimmed">
            {ui('bulkNone')}
          </Text>
        )}
        {options.map((o) => (
          <Button
            key={o.name}
            size="xs"
            variant="light"
            loading={busy === o.name}
            disabled={busy !== null}
            onClick={() =>
              o.confirm
                ? confirm({
                    title: o.label,
                    body: ui('bulkConfirm', { action: o.label, count: o.ids.length }),
                    confirmLabel: o.label,
                    onConfirm: () => void run(o.name, o.ids, o.label),
                  })
                : void run(o.name, o.ids, o.label)
            }
          >
            {ui('bulkRun', { action: o.label, count: o.ids.length })}
          </Button>
        ))}
        <Button size="xs" variant="subtle" onClick={props.onDone} disabled={busy !== null}>
          {ui('clearSelection')}
        </Button>
      </Group>
      {confirmDialog}
    </Card>
  );
}
