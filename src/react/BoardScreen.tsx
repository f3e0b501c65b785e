import {
  ActionIcon,
  Badge,
  Box,
  Card,
  Group,
  Menu,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { Row } from '../backend/types.ts';
import { availableTransitions, stateLabel, type TransitionOption } from '../runtime/availableTransitions.ts';
import { buildPath, type RouteEntry } from '../runtime/routeTable.ts';
import { ui } from '../runtime/uiText.ts';
import { serverScreen, whereFilters } from '../runtime/whereFilters.ts';
import { useRuntime } from './context.ts';
import { FieldValue, rowTitle, stateColor } from './display.tsx';
import { useList } from './hooks.ts';
import { LoadFailed } from './LoadFailed.tsx';
import { useTransitionRunner } from './TransitionDialog.tsx';

/**
 * Columns by status; dragging a card to a column runs the transition to that state. While a
 * card is dragged, columns it may not move to are visibly closed. Each card also has a
 * "Move to…" menu, the keyboard way to do the same.
 */
export function BoardScreen({ route }: { route: RouteEntry }) {
  const { model, user, routes } = useRuntime();
  const entity = route.entity ?? '';
  const machine = model.machines.get(entity);
  const screen = model.screens.get(route.name)?.spec;
  const where = useMemo(
    () => whereFilters(model, entity, screen?.where, user),
    [model, entity, screen?.where, user],
  );
  const list = useList(entity, {
    filters: where.filters,
    ...serverScreen(where, route.name),
    limit: 500,
    sort: [{ field: 'updatedAt', direction: 'desc' }],
  });
  const runner = useTransitionRunner(entity);
  const [dragging, setDragging] = useState<Row | null>(null);
  if (!machine) return null;
  const excluded = new Set(
    where.filters.filter((f) => f.field === machine.field && f.op === 'neq').map((f) => String(f.value)),
  );
  const states = [...machine.states.keys()].filter((s) => !excluded.has(s));
  const rows = list.data?.rows ?? [];
  const detail = routes.find('detail', entity);
  const cardFields = (screen?.columns ?? []).filter((c) => c !== model.tables.get(entity)?.spec?.title);
  const optionsFor = (row: Row) => availableTransitions(model, user, entity, row);
  const dragOptions = dragging ? optionsFor(dragging) : [];
  const openTo = (state: string) => dragOptions.find((o) => o.to === state && o.allowed);

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {route.title}
      </Title>
      {list.error && !list.data && <LoadFailed error={list.error} onRetry={() => void list.refetch()} />}
      {/* Focusable, so a keyboard can scroll the columns sideways (axe: scrollable-region-focusable). */}
      <ScrollArea type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, 'aria-label': route.title }}>
        <Group align="flex-start" wrap="nowrap" gap="md" pb="sm">
          {states.map((state) => (
            <BoardColumn
              key={state}
              entity={entity}
              state={state}
              rows={rows.filter((r) => r[machine.field] === state)}
              loaded={list.data !== undefined || list.isError}
              isHome={dragging?.[machine.field] === state}
              target={dragging && dragging[machine.field] !== state ? openTo(state) : undefined}
              dragging={dragging}
              setDragging={setDragging}
              cardFields={cardFields}
              detail={detail}
              runner={runner}
            />
          ))}
        </Group>
      </ScrollArea>
      {runner.dialog}
    </Stack>
  );
}

type Runner = ReturnType<typeof useTransitionRunner>;

/** One state's column: a drop target while a card that may move here is dragged. */
function BoardColumn(props: {
  entity: string;
  state: string;
  rows: readonly Row[];
  loaded: boolean;
  isHome: boolean;
  /** The transition a drop here runs, while a card that may move here is dragged. */
  target: TransitionOption | undefined;
  dragging: Row | null;
  setDragging(row: Row | null): void;
  cardFields: readonly string[];
  detail: RouteEntry | undefined;
  runner: Runner;
}) {
  const { model } = useRuntime();
  const { entity, state, target, dragging, setDragging, cardFields, detail, runner } = props;
  const inColumn = props.rows;
  const [over, setOver] = useState(false);
  const closed = dragging !== null && !props.isHome && !target;
  return (
    <Box
      key={state}
      role="region"
      aria-label={stateLabel(model, entity, state)}
      w={280}
      miw={260}
      p="sm"
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        background: 'var(--mantine-color-gray-light)',
        opacity: closed ? 0.45 : 1,
        outline: over && target ? '2px dashed var(--mantine-color-blue-6)' : undefined,
        transition: 'opacity 120ms',
      }}
      onDragOver={(ev) => {
        if (target) {
          ev.preventDefault();
          setOver(true);
        }
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(ev) => {
        ev.preventDefault();
        setOver(false);
        if (dragging && target) runner.start(target, dragging);
        setDragging(null);
      }}
    >
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <Box
            w={8}
            h={8}
            style={{
              borderRadius: 8,
              background: `var(--mantine-color-${stateColor(model, entity, state)}-6)`,
            }}
          />
          <Text fw={600} size="sm" truncate="end">
            {stateLabel(model, entity, state)}
          </Text>
        </Group>
        {/* No count until the rows are here: "0" while loading would be a wrong answer. */}
        {props.loaded ? (
          <Badge variant="light" color="gray" radius="sm" style={{ flexShrink: 0 }}>
            {inColumn.length}
          </Badge>
        ) : (
          <Skeleton height={18} width={24} radius="sm" aria-label={ui('loading')} />
        )}
      </Group>
      {closed && (
        <Text size="xs" c="dimmed" mb="xs">
          {ui('columnClosed')}
        </Text>
      )}
      <Stack gap="xs" mih={60}>
        {!props.loaded && <Skeleton height={60} radius="md" />}
        {inColumn.map((row) => (
          <BoardCard
            key={row.id}
            entity={entity}
            row={row}
            fields={cardFields}
            detail={detail}
            runner={runner}
            onDrag={setDragging}
          />
        ))}
      </Stack>
    </Box>
  );
}

/** A card: its title (a link to the detail), a "Move to…" menu, and the board's fields. */
function BoardCard(props: {
  entity: string;
  row: Row;
  fields: readonly string[];
  detail: RouteEntry | undefined;
  runner: Runner;
  onDrag(row: Row | null): void;
}) {
  const { model, user } = useRuntime();
  const { entity, row, detail, runner } = props;
  const options = availableTransitions(model, user, entity, row);
  const title = rowTitle(model, entity, row);
  return (
    <Card
      withBorder
      padding="sm"
      radius="md"
      draggable={options.some((o) => o.allowed)}
      onDragStart={(ev) => {
        ev.dataTransfer.effectAllowed = 'move';
        ev.dataTransfer.setData('text/plain', row.id);
        props.onDrag(row);
      }}
      onDragEnd={() => props.onDrag(null)}
      style={{ cursor: options.some((o) => o.allowed) ? 'grab' : undefined }}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap={4}>
        {detail ? (
          <Text
            component={Link}
            to={buildPath(detail, { id: row.id })}
            size="sm"
            fw={500}
            style={{ color: 'inherit' }}
            lineClamp={2}
          >
            {title}
          </Text>
        ) : (
          <Text size="sm" fw={500}>
            {title}
          </Text>
        )}
        {options.length > 0 && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" size="sm" aria-label={ui('moveCard', { title })}>
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{ui('moveTo')}</Menu.Label>
              {options.map((o) => (
                <Tooltip key={o.name} label={o.reason ?? ''} disabled={o.allowed} position="left">
                  <Menu.Item disabled={!o.allowed} onClick={() => runner.start(o, row)}>
                    {o.label} → {o.toLabel}
                  </Menu.Item>
                </Tooltip>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <Group gap={8} mt={6}>
        {props.fields
          .filter((c) => row[c] !== null && row[c] !== undefined && row[c] !== '')
          .map((c) => (
            <Text key={c} size="xs" c="dimmed" component="div">
              <FieldValue entity={entity} name={c} row={row} />
            </Text>
          ))}
      </Group>
    </Card>
  );
}
