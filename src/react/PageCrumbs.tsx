import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link } from 'wouter';
import { effectiveRoles } from '../runtime/roles.ts';
import { buildPath, type RouteEntry } from '../runtime/routeTable.ts';
import { ui } from '../runtime/uiText.ts';
import { useRuntime } from './context.ts';
import { rowTitle } from './display.tsx';
import { useRow } from './hooks.ts';
import { useHeldRoles } from './useHeldRoles.ts';

export interface Crumb {
  label: string;
  /** Where it leads; the last crumb (this page) has none. */
  to?: string;
}

/**
 * Where this page sits ("Tickets › Printer jam › Edit ticket"): the trail back to its list, one
 * link per level, the current page last and marked as such (WAI-ARIA breadcrumb pattern). Long
 * titles are cut with an ellipsis so the trail stays one line on a phone.
 *
 * @example
 * <PageCrumbs items={[{ label: 'Tickets', to: '/tickets' }, { label: 'Printer jam' }]} />
 */
export function PageCrumbs({ items }: { items: readonly Crumb[] }) {
  if (items.length < 2) return null;
  // Each crumb at most 40 % of the screen, cut with an ellipsis: a long title must not push the
  // trail past a phone's edge (Breadcrumbs styles its children, so the cut is an inner span).
  const cut = {
    display: 'inline-block',
    maxWidth: '40vw',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    verticalAlign: 'bottom',
  } as const;
  return (
    <nav aria-label={ui('breadcrumbs')} style={{ minWidth: 0, maxWidth: '100%', overflow: 'hidden' }}>
      <Breadcrumbs separator="›" separatorMargin={6} style={{ flexWrap: 'nowrap', minWidth: 0 }}>
        {items.map((c, i) =>
          c.to && i < items.length - 1 ? (
            <Anchor key={c.to} component={Link} to={c.to} size="sm" title={c.label}>
              <span style={cut}>{c.label}</span>
            </Anchor>
          ) : (
            <Text key="current" size="sm" c="dimmed" aria-current="page" title={c.label}>
              <span style={cut}>{c.label}</span>
            </Text>
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}

/**
 * The crumbs above a row of `entity` (the row itself not included): its list, or — for rows with
 * no list of their own, like an expense line — its parent's trail and the parent (the first
 * required reference to an entity with a detail screen).
 */
export function useTrail(entity: string, row: Readonly<Record<string, unknown>> | undefined): Crumb[] {
  const { model, routes } = useRuntime();
  // A list the person may not open is no crumb: its link led to "Not available" (a customer on a
  // category, whose list is the administrators').
  const held = effectiveRoles(model, useHeldRoles());
  const opens = (r: RouteEntry | undefined) =>
    r && (r.nav.length === 0 || r.nav.some((n) => held.includes(n))) ? r : undefined;
  const list = opens(listRoute(routes.routes, entity));
  const parentField = list
    ? undefined
    : Object.entries(model.tables.get(entity)?.spec.fields ?? {}).find(
        ([, f]) => f.type === 'ref' && f.required && f.ref && routes.find('detail', f.ref),
      );
  const parentEntity = parentField?.[1].ref;
  const parentId = parentField && row ? row[parentField[0]] : undefined;
  const parent = useRow(parentEntity, typeof parentId === 'string' ? parentId : undefined);
  const parentList = parentEntity ? opens(listRoute(routes.routes, parentEntity)) : undefined;
  if (list) return [{ label: list.title, to: buildPath(list) }];
  const detail = parentEntity ? routes.find('detail', parentEntity) : undefined;
  if (!parentEntity || !detail || !parent.data) return [];
  return [
    ...(parentList ? [{ label: parentList.title, to: buildPath(parentList) }] : []),
    { label: rowTitle(model, parentEntity, parent.data), to: buildPath(detail, { id: parent.data.id }) },
  ];
}

function listRoute(all: readonly RouteEntry[], entity: string): RouteEntry | undefined {
  return all.find((r) => r.kind === 'list' && r.entity === entity && r.params.length === 0);
}
