import { Anchor, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import type { Row } from '../backend/types.ts';
import type { ConstantNode } from '../model/constant.ts';
import { availableTransitions, stateLabel } from '../runtime/availableTransitions.ts';
import { dashboardWidgets } from '../runtime/dashboardWidgets.ts';
import { quantityText } from '../runtime/quantityText.ts';
import { buildPath, type RouteEntry } from '../runtime/routeTable.ts';
import { ruleVerdict } from '../runtime/ruleVerdict.ts';
import { ui } from '../runtime/uiText.ts';
import { serverScreen, whereFilters } from '../runtime/whereFilters.ts';
import { useRuntime } from './context.ts';
import { FieldValue, rowTitle, StatusBadge, stateColor } from './display.tsx';
import { useList } from './hooks.ts';
import { CountFailed, LoadFailed } from './LoadFailed.tsx';
import { useHeldRoles } from './useHeldRoles.ts';

/**
 * The dashboard's widgets the person sees (`dashboardWidgets`): counts by status, the items
 * waiting on me (rows where I can move the work forward to a state that is not final), and the
 * targets (duration constants) the team works to. A widget for roles they do not hold is not
 * rendered, so its rows are never asked for.
 */
export function DashboardScreen({ route }: { route: RouteEntry }) {
  const { model, user } = useRuntime();
  const entity = route.entity ?? '';
  const machine = model.machines.get(entity);
  const where = whereFilters(model, entity, model.screens.get(route.name)?.spec.where, user);
  const shown = dashboardWidgets(model, route.name, useHeldRoles());
  const targets = [...model.constants].filter(([, c]) => ['hours', 'days', 'minutes'].includes(c.unit ?? ''));
  // Cards side by side, each group of consecutive ones in its own grid; counts by status span the page.
  const groups: ('byStatus' | ('waitingOnMe' | 'targets')[])[] = [];
  for (const w of shown) {
    if (w === 'byStatus') {
      if (machine) groups.push(w);
    } else if (
      (w === 'waitingOnMe' && model.tables.get(entity)?.spec) ||
      (w === 'targets' && targets.length > 0)
    ) {
      const last = groups[groups.length - 1];
      if (Array.isArray(last)) last.push(w);
      else groups.push([w]);
    }
  }
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {route.title}
        </Title>
        <Text c="dimmed">{model.purpose.name}</Text>
      </div>
      {groups.map((g) =>
        g === 'byStatus' ? (
          <ByStatus key={g} route={route} where={where} />
        ) : (
          <SimpleGrid key={g.join(' ')} cols={{ base: 1, md: g.length > 1 ? 2 : 1 }} spacing="lg">
            {g.map((w) =>
              w === 'waitingOnMe' ? (
                <WaitingCard key={w} route={route} where={where} />
              ) : (
                <TargetsCard key={w} targets={targets} />
              ),
            )}
          </SimpleGrid>
        ),
      )}
    </Stack>
  );
}

type Where = ReturnType<typeof whereFilters>;

/** The rows of the screen's entity counted per state, each a link to the list filtered to it. */
function ByStatus({ route, where }: { route: RouteEntry; where: Where }) {
  const { model, routes } = useRuntime();
  const entity = route.entity ?? '';
  const machine = model.machines.get(entity);
  const e = model.tables.get(entity)?.spec;
  const plural = e?.plural ?? e?.label ?? entity;
  const list = routes.routes.find((r) => r.kind === 'list' && r.entity === entity && r.params.length === 0);
  if (!machine) return null;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {ui('byStatus', { plural })}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: machine.states.size }}>
        {[...machine.states.keys()].map((s) => (
          <StatusCount
            key={s}
            entity={entity}
            state={s}
            fixed={where.filters}
            screen={serverScreen(where, route.name)}
            href={list ? `${buildPath(list)}?f.${machine.field}=${s}` : undefined}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** The open rows whose turn is mine, newest change first. */
function WaitingCard({ route, where }: { route: RouteEntry; where: Where }) {
  const { model, user, routes } = useRuntime();
  const entity = route.entity ?? '';
  const machine = model.machines.get(entity);
  const open = machine ? [...machine.states.values()].filter((s) => !s.final).map((s) => s.name) : [];
  const active = useList(entity, {
    filters: [
      ...where.filters,
      ...(machine ? [{ field: machine.field, op: 'in' as const, value: open }] : []),
    ],
    ...serverScreen(where, route.name),
    sort: [{ field: 'updatedAt', direction: 'desc' }],
    limit: 300,
  });
  const detail = routes.find('detail', entity);
  // Whose turn it is, as the specification says per state (`waitingOn`); where it does not say,
  // or the browser cannot judge the rule, the rows I can move on to a state that is not final.
  const waiting = (active.data?.rows ?? []).filter((r) => {
    const turn = machine?.states.get(String(r[machine.field]))?.waitingOn;
    const verdict = turn === undefined ? 'undecidable' : ruleVerdict(model, entity, turn, { user, row: r });
    if (verdict !== 'undecidable') return verdict === true;
    return availableTransitions(model, user, entity, r).some(
      (o) => o.allowed && !machine?.states.get(o.to)?.final,
    );
  });
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {ui('waitingOnMe')}
        </Title>
        {/* No number until the rows are here: "0" while loading would be a wrong answer. */}
        {active.data ? (
          <Badge variant="light">{waiting.length}</Badge>
        ) : active.error ? (
          <CountFailed error={active.error} />
        ) : (
          <Skeleton height={20} width={28} radius="xl" aria-label={ui('loading')} />
        )}
      </Group>
      {active.isLoading ? (
        <Skeleton height={120} />
      ) : active.error && !active.data ? (
        <LoadFailed error={active.error} onRetry={() => void active.refetch()} />
      ) : waiting.length === 0 ? (
        <Text c="dimmed" size="sm">
          {ui('nothingWaiting')}
        </Text>
      ) : (
        <Stack gap={0}>
          {waiting.slice(0, 8).map((r) => (
            <WaitingRow key={r.id} entity={entity} row={r} detail={detail} />
          ))}
        </Stack>
      )}
    </Card>
  );
}

function StatusCount(props: {
  entity: string;
  state: string;
  fixed: ReturnType<typeof whereFilters>['filters'];
  screen: { screen?: string };
  href: string | undefined;
}) {
  const { model } = useRuntime();
  const field = model.machines.get(props.entity)?.field ?? 'status';
  const q = useList(props.entity, {
    filters: [...props.fixed, { field, op: 'eq', value: props.state }],
    ...props.screen,
    limit: 1,
    count: 'exact',
  });
  const color = stateColor(model, props.entity, props.state);
  const body = (
    <Card
      withBorder
      radius="md"
      padding="md"
      // Every card of a row as tall as the tallest (a long state's name takes two lines).
      h="100%"
      style={{ borderTop: `3px solid var(--mantine-color-${color}-6)` }}
    >
      <Text size="xs" tt="uppercase" fw={600} c="dimmed">
        {stateLabel(model, props.entity, props.state)}
      </Text>
      {q.data?.total !== undefined ? (
        <Text fz={28} fw={700} lh={1.2}>
          {q.data.total}
        </Text>
      ) : q.error ? (
        <CountFailed error={q.error} />
      ) : (
        <Skeleton height={34} width={48} mt={2} aria-label={ui('loading')} />
      )}
    </Card>
  );
  return props.href ? (
    <Anchor component={Link} to={props.href} underline="never" c="inherit" display="block" h="100%">
      {body}
    </Anchor>
  ) : (
    body
  );
}

/** One row waiting on me: its title (a link to its detail), when it changed, its status. */
function WaitingRow({
  entity,
  row: r,
  detail,
}: {
  entity: string;
  row: Row;
  detail: RouteEntry | undefined;
}) {
  const { model } = useRuntime();
  const machine = model.machines.get(entity);
  return (
    <Group
      justify="space-between"
      py={8}
      wrap="nowrap"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={0} style={{ minWidth: 0 }}>
        {detail ? (
          <Anchor component={Link} to={buildPath(detail, { id: r.id })} fw={500} size="sm" truncate>
            {rowTitle(model, entity, r)}
          </Anchor>
        ) : (
          <Text size="sm">{rowTitle(model, entity, r)}</Text>
        )}
        <Text size="xs" c="dimmed">
          <FieldValue entity={entity} name="updatedAt" row={r} />
        </Text>
      </Stack>
      {machine && <StatusBadge entity={entity} state={String(r[machine.field])} />}
    </Group>
  );
}

/** The duration constants the team works to (`firstResponseHours: 4 hours`). */
function TargetsCard({ targets }: { targets: readonly (readonly [string, ConstantNode])[] }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h4" mb="sm">
        {ui('targets')}
      </Title>
      <Stack gap={6}>
        {targets.map(([name, c]) => (
          // The value stays on its label's line (a long label wraps beside it), never under it
          // where, on a phone, it read as the next label's.
          <Group key={name} justify="space-between" wrap="nowrap" align="flex-start">
            <Text size="sm" style={{ minWidth: 0 }}>
              {c.label}
            </Text>
            <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {quantityText(c.value, c.unit)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
