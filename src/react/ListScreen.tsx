import { Box, Button, Card, Checkbox, Group, rem, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback, useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconDownload, IconFilter, IconPlus, IconSearch, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  type MouseEvent,
  memo,
  Suspense,
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link, useSearchParams } from 'wouter';
import type { Filter, Row } from '../backend/types.ts';
import { hasBulkTransition } from '../runtime/bulkTransitions.ts';
import { can } from '../runtime/can.ts';
import { readableFields } from '../runtime/fieldReads.ts';
import { booleanFields, nextPageQuery, pageQuery, totalQuery } from '../runtime/listScreenQueries.ts';
import { listQuery, listStateFromParams, listStateToParams, PAGE_SIZE } from '../runtime/listState.ts';
import { inSentence } from '../runtime/locale.ts';
import { buildPath, type RouteEntry } from '../runtime/routeTable.ts';
import { ui } from '../runtime/uiText.ts';
import { serverScreen, whereFilters } from '../runtime/whereFilters.ts';
import type { EntitySpec, ScreenSpec } from '../spec/types.ts';
import { afterFirstScreen } from './afterFirstScreen.ts';
import { useAppCore, useRuntime } from './context.ts';
import { FieldValue, notifyError, rowTitle } from './display.tsx';
import { FilterPlaceholder } from './FilterPlaceholder.tsx';
import { useList, usePrefetchList } from './hooks.ts';
import { LoadFailed } from './LoadFailed.tsx';
import { fieldLabel } from './labels.ts';
import { lazyComponent } from './lazyComponent.ts';
import { useNavigate } from './navigation.ts';
import { PlainCheckbox } from './PlainCheckbox.tsx';
import { PlainLink, PlainSkeleton } from './PlainText.tsx';
import { useChosenColumns } from './useChosenColumns.ts';
import { useHeldRoles } from './useHeldRoles.ts';
import { TYPING_PAUSE_MS, useListAddress } from './useListAddress.ts';
import { PageLabelsContext, usePageLabels } from './usePageLabels.ts';
import { useShownRows } from './useShownRows.ts';

const ROW_HEIGHT = 52;
/** A hosted backend's search waits for this pause in typing (one request per pause, not per key). */
const SEARCH_PAUSE_MS = 200;
/** What the list's scroll area leaves for the header, toolbar and pager above and below it. */
const CHROME_HEIGHT = 300;
/** How many of a filter's choices are read ahead when its list opens (a state machine's states). */
const FILTER_CHOICES_AHEAD = 8;
/** A screen without filters (the same array every render: ListFilters is memoised). */
const NO_FILTERS: readonly string[] = [];
/** The list's scroll area: the table's own box, so its header sticks while the rows scroll. */
const SCROLLER_STYLE = {
  maxHeight: `calc(100dvh - ${CHROME_HEIGHT}px)`,
  overflow: 'auto',
  overscrollBehavior: 'contain',
} as const;

let firstRowMarked = false;
let firstConfirmedMarked = false;

/**
 * `ninefold:first-row` on the page's timeline, once per page load, at the first frame that shows a
 * list row (the start-up benchmarks read it; see scripts/bench-start.ts).
 */
function useFirstRowMark(hasRows: boolean, confirmed: boolean): void {
  useEffect(() => {
    if (!hasRows || firstRowMarked) return;
    firstRowMarked = true;
    requestAnimationFrame(() => setTimeout(() => performance.mark('ninefold:first-row'), 0));
  }, [hasRows]);
  // Rows remembered from the last visit (startMemory.ts) are shown first; this marks the first
  // rows the backend itself answered.
  useEffect(() => {
    if (!hasRows || !confirmed || firstConfirmedMarked) return;
    firstConfirmedMarked = true;
    requestAnimationFrame(() => setTimeout(() => performance.mark('ninefold:first-row-confirmed'), 0));
  }, [hasRows, confirmed]);
}

/**
 * The columns of a list screen that names none: the entity's fields marked `list`, else its
 * title field (else its first field), so that a list always shows what its rows are.
 */
function defaultColumns(e: EntitySpec | undefined): string[] {
  const marked = Object.entries(e?.fields ?? {})
    .filter(([, f]) => f.list)
    .map(([n]) => n);
  if (marked.length > 0) return marked;
  const first = e?.title ?? Object.keys(e?.fields ?? {})[0];
  return first ? [first] : [];
}

/** A list screen: server-side search, filters, sort and pages; state in the URL. */
export function ListScreen({ route }: { route: RouteEntry }) {
  const { model, user, routes } = useRuntime();
  const screen = model.screens.get(route.name)?.spec;
  const entity = route.entity ?? '';
  const e = model.tables.get(entity)?.spec;
  const wide = useMediaQuery('(min-width: 48em)', true);
  const page = useListPage(route, screen);
  const { state, rows, total } = page;
  // Rows can be chosen for a bulk transition where one applies to some row of the page.
  const pageRows = page.list.data?.rows;
  const selectable = useMemo(
    () => hasBulkTransition(model, user, entity, pageRows ?? []),
    [model, user, entity, pageRows],
  );
  const choice = useRowChoice(rows);
  // What the rows, filters and column chooser are given stays the same object from one render to
  // the next unless it changes: they are memoised, and a page arriving re-renders only the page
  // (not 50 rows again with their old values, nor the filters' comboboxes).
  // A field the person can never read (its `read` rule needs a role they hold nowhere) is no
  // column, filter, sort key or exported column of theirs; the server masks it anyway.
  // Joined: the roles' array is new on every render, the columns must stay the same object.
  const heldKey = useHeldRoles().join(' ');
  const columns = useMemo(
    () => readableFields(model, heldKey.split(' '), entity, screen?.columns ?? defaultColumns(e)),
    [screen?.columns, e, model, heldKey, entity],
  );
  // The person's choice of columns (kept per screen); a phone shows the first two of them.
  const chosenColumns = useChosenColumns(route.name, columns);
  const visibleColumns = useMemo(
    () => (wide ? chosenColumns.shown : chosenColumns.shown.slice(0, 2)),
    [wide, chosenColumns.shown],
  );
  const columnLabel = useCallback((c: string) => fieldLabel(model, entity, c), [model, entity]);
  const controls = useListControls(route, screen?.sort, state);
  const exported = useCsvExport(route.name, entity, page.query, chosenColumns.shown, total);
  const plural = e?.plural ?? e?.label ?? entity;
  const filtered = state.search !== '' || Object.keys(state.filters).length > 0;
  const createForm = routes.find('form', entity, 'create');

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <ListHeading title={route.title} entity={entity} total={total} about={page.about} />
        <Group gap="xs">
          {columns.length > 1 && (
            // Appears when its chunk arrives (nothing to hold its place: it sits at the row's end).
            <Suspense fallback={null}>
              <ColumnChooser columns={columns} label={columnLabel} chosen={chosenColumns} />
            </Suspense>
          )}
          <ExportButton exported={exported} disabled={rows.length === 0} />
          {createForm && can(model, user, entity, 'create').ok && (
            <Button component={Link} to={buildPath(createForm)} leftSection={<IconPlus size={16} />}>
              {/* The form's own title, as the navigation says it: one wording per action. */}
              {createForm.title || ui('newRow', { label: inSentence(e?.label ?? entity) })}
            </Button>
          )}
        </Group>
      </Group>
      <ListToolbar
        entity={entity}
        screen={screen}
        wide={wide}
        state={state}
        controls={controls}
        columns={columns}
        filtered={filtered}
        fixed={page.fixed}
      />
      {selectable && choice.chosenRows.length > 0 && (
        // Loads when the first row is chosen (a tick later than the checkbox, nothing else moves).
        <Suspense fallback={null}>
          <BulkActions entity={entity} rows={choice.chosenRows} onDone={choice.clear} />
        </Suspense>
      )}
      <Card withBorder padding={0} radius="md">
        {page.list.isLoading ? (
          <Stack p="md" gap="sm">
            {[0, 1, 2, 3, 4].map((i) => (
              <PlainSkeleton key={i} height={28} />
            ))}
          </Stack>
        ) : page.list.error && !page.list.data ? (
          <LoadFailed error={page.list.error} onRetry={() => void page.list.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyList filtered={filtered} plural={plural} />
        ) : (
          <div data-list-scroller="" style={SCROLLER_STYLE}>
            <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" stickyHeader>
              <ListHead entity={entity} columns={visibleColumns} choice={selectable ? choice : undefined} />
              <PageRows
                rows={rows}
                columns={visibleColumns}
                entity={entity}
                detail={routes.find('detail', entity)}
                chosen={selectable ? choice.chosen : undefined}
                onToggle={choice.toggle}
              />
            </Table>
          </div>
        )}
      </Card>
      {total !== null && total > PAGE_SIZE && (
        <ListPager state={state} total={total} about={page.about} onPage={controls.goToPage} />
      )}
    </Stack>
  );
}

/**
 * The page on screen and its total, from the URL's state and the screen's `where`. Rows and total
 * are two requests: a page change re-reads only its 50 rows, while the count is kept per search
 * and filters. It is exact up to a threshold and an estimate above it (shown as "about N"), so a
 * large table is never rescanned to count it. The app may have asked both already, while this
 * screen's code loaded (listScreenQueries.ts, prefetchListScreen).
 */
function useListPage(route: RouteEntry, screen: ScreenSpec | undefined) {
  const { backend, model, user } = useRuntime();
  const entity = route.entity ?? '';
  const [params] = useSearchParams();
  const state = listStateFromParams(params, screen?.sort);
  const [typed] = useDebouncedValue(state.search, TYPING_PAUSE_MS);
  const where = useMemo(
    () => whereFilters(model, entity, screen?.where, user),
    [model, entity, screen?.where, user],
  );
  const booleans = useMemo(() => booleanFields(model, entity), [model, entity]);
  const query = { ...listQuery(state, where.filters, booleans), ...serverScreen(where, route.name) };
  const list = useList(entity, pageQuery(query));
  // The total once its page is in (the last page's rows stand in meanwhile), and a search's once
  // its typing pauses, on a backend in this browser: the database answers one query at a time, so
  // a total asked beside a page, or between two keys, only held the next key of a search.
  const paused = backend.kind !== 'embedded' || typed === state.search;
  const counted = useList(entity, totalQuery(query, where, route.name), !list.isPlaceholderData && paused);
  // The whole rule was applied on the server (its plain filters, then the screen's function).
  const rows = useShownRows(
    list.data?.rows,
    `${route.name} ${JSON.stringify(query)}`,
    list.isPlaceholderData,
  );
  useFirstRowMark(rows.length > 0, list.dataUpdatedAt > 0 && rows === list.data?.rows);
  const total = counted.data?.total ?? null;
  // The next page loads while this one is read, so "Next page" only has to render it. Only once
  // this search's own total is in: the last search's total (shown meanwhile) would ask a page the
  // new search may not have, ahead of its total, on a database that answers one query at a time.
  const next = nextPageQuery(pageQuery(query));
  const counts = total !== null && !counted.isPlaceholderData;
  usePrefetchList(entity, next, list.isSuccess && !list.isPlaceholderData && counts && next.offset < total, {
    query: pageQuery(query),
    updatedAt: list.dataUpdatedAt,
  });
  return { state, query, list, rows, total, about: counted.data?.estimated === true, fixed: where.filters };
}

type ListState = ReturnType<typeof listStateFromParams>;

/**
 * Changes of the list's state (search, filters, sort, page) written to the URL. A change asks its
 * rows first and shows with them (useListAddress); it builds on a change still waiting for its
 * rows, not on what the last render showed.
 */
function useListControls(route: RouteEntry, sort: string | undefined, state: ListState) {
  const { backend } = useRuntime();
  const [, setParams] = useSearchParams();
  const address = useListAddress(route.name, route.entity ?? '', setParams);
  const go = address.go;
  const current = () => listStateFromParams(address.base(), sort);
  const setState = (patch: Partial<ListState>) =>
    go(listStateToParams({ ...current(), page: 1, ...patch }, sort), true);
  // A backend in this browser answers a read ahead from the same worker in milliseconds; a hosted
  // one would pay a request for each choice never taken.
  const readAhead = (choices: readonly Record<string, string>[]) => {
    if (backend.kind !== 'embedded') return;
    for (const filters of choices.slice(0, FILTER_CHOICES_AHEAD))
      address.readAhead(listStateToParams({ ...current(), page: 1, filters }, sort));
  };
  const latest = useRef({ setState, readAhead });
  latest.current = { setState, readAhead };
  const onFilters = useCallback(
    (filters: Record<string, string>) => latest.current.setState({ filters }),
    [],
  );
  const onSort = useCallback((s: string | undefined) => latest.current.setState({ sort: s }), []);
  const onFiltersAhead = useCallback(
    (choices: readonly Record<string, string>[]) => latest.current.readAhead(choices),
    [],
  );
  const filtersKey = JSON.stringify(state.filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `filtersKey` stands for `state.filters`' contents
  const filters = useMemo(() => state.filters, [filtersKey]);
  // Search as you type: on a backend in this browser each key asks at once, from the key's own
  // event (a read the next key replaces is called off before it runs, see useListAddress); a
  // hosted one waits for a pause in typing.
  const paused = useDebouncedCallback((q: string) => setState({ search: q }), SEARCH_PAUSE_MS);
  const onSearch = backend.kind === 'embedded' ? (q: string) => setState({ search: q }) : paused;
  return {
    filters,
    onFilters,
    onFiltersAhead,
    onSort,
    onSearch,
    warmSearch: address.warmSearch,
    clear: () => go(new URLSearchParams(), true),
    goToPage: (page: number) => go(listStateToParams({ ...current(), page }, sort), false),
  };
}

/** The rows chosen for a bulk transition (by id), among the page's rows. */
function useRowChoice(rows: readonly Row[]) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback(
    (id: string) =>
      setChosen((old) => {
        const next = new Set(old);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  const chosenRows = rows.filter((r) => chosen.has(String(r.id)));
  const all = chosenRows.length === rows.length;
  return {
    chosen,
    chosenRows,
    toggle,
    all,
    some: chosenRows.length > 0 && !all,
    toggleAll: () => setChosen(all ? new Set() : new Set(rows.map((r) => String(r.id)))),
    clear: () => setChosen(new Set()),
  };
}

/** Export reads every page of the current filter, not just the rows on screen. */
function useCsvExport(
  name: string,
  entity: string,
  query: ReturnType<typeof useListPage>['query'],
  columns: readonly string[],
  total: number | null,
) {
  const { model, backend } = useRuntime();
  const qc = useQueryClient();
  const [exporting, setExporting] = useState<{ done: number; total: number | null } | null>(null);
  const start = async () => {
    setExporting({ done: 0, total });
    try {
      const { offset: _offset, limit: _limit, ...filter } = query;
      // Its code loads on the first export (not needed to show the rows).
      const { exportRows } = await import('./exportRows.ts');
      const csv = await exportRows({
        qc,
        backend,
        model,
        entity,
        query: filter,
        // What the person sees: the columns they chose.
        columns,
        onProgress: (done, all) => setExporting({ done, total: all }),
      });
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `${name}.csv`;
      a.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      notifyError(model, err);
    } finally {
      setExporting(null);
    }
  };
  return { exporting, start };
}

function ExportButton({
  exported,
  disabled,
}: {
  exported: ReturnType<typeof useCsvExport>;
  disabled: boolean;
}) {
  const { exporting } = exported;
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      onClick={() => void exported.start()}
      disabled={disabled || exporting !== null}
    >
      {exporting
        ? ui('exportingCsv', { done: exporting.done, total: exporting.total ?? '…' })
        : ui('exportCsv')}
    </Button>
  );
}

/** The screen's title and how many rows match ("about N" when the count is an estimate). */
function ListHeading(props: { title: string; entity: string; total: number | null; about: boolean }) {
  const { model } = useRuntime();
  const e = model.tables.get(props.entity)?.spec;
  const { total } = props;
  return (
    <div>
      <Title order={1} size="h2">
        {props.title}
      </Title>
      <Text c="dimmed" size="sm" aria-live="polite">
        {total === null
          ? ui('loading')
          : ui(props.about ? 'totalRowsAbout' : 'totalRows', {
              count: total,
              plural: inSentence(
                total === 1 ? (e?.label ?? props.entity) : (e?.plural ?? e?.label ?? props.entity),
              ),
            })}
      </Text>
    </div>
  );
}

/** Search, the filters (folded away on a phone) and "Clear filters". */
function ListToolbar(props: {
  entity: string;
  screen: ScreenSpec | undefined;
  wide: boolean;
  state: ListState;
  controls: ReturnType<typeof useListControls>;
  columns: readonly string[];
  filtered: boolean;
  /** The screen rule's plain filters: a filter offers only the values they allow. */
  fixed: readonly Filter[];
}) {
  const { model } = useRuntime();
  const { entity, screen, state, controls } = props;
  const e = model.tables.get(entity)?.spec;
  const plural = e?.plural ?? e?.label ?? entity;
  // The search box is uncontrolled; "Clear filters" remounts it empty. Remounting it when the
  // search first became non-empty (as a key on the value did) dropped the focus mid-word whenever
  // the debounce fired between two keys.
  const [searchBox, setSearchBox] = useState(0);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const { columns } = props;
  const sortable = useMemo(() => ['createdAt', 'updatedAt', ...columns], [columns]);
  const activeFilters = Object.keys(state.filters).length;
  const filterLabels = [
    ...(screen?.filters ?? []).filter((n) => e?.fields[n]).map((n) => fieldLabel(model, entity, n)),
    ui('sortBy'),
  ];
  return (
    <Card withBorder padding="sm" radius="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          key={`q-${searchBox}`}
          aria-label={ui('search')}
          placeholder={ui('searchPlaceholder', { plural: inSentence(plural) })}
          leftSection={<IconSearch size={16} />}
          defaultValue={state.search}
          onChange={(ev) => controls.onSearch(ev.currentTarget.value)}
          onFocus={controls.warmSearch}
          style={{ flex: '1 1 220px' }}
        />
        {!props.wide && (
          // A phone: the filters fold away, so the first rows are on the first screen.
          <Button
            variant="default"
            leftSection={<IconFilter size={16} />}
            aria-expanded={filtersOpen}
            onClick={() => setFiltersOpen((o) => !o)}
          >
            {activeFilters > 0 ? ui('filtersActive', { count: activeFilters }) : ui('filters')}
          </Button>
        )}
        {(props.wide || filtersOpen) && (
          // Mantine's Select (the combobox family, FieldInput's chunk) is not needed for the
          // first rows: the filters render when their chunk arrives, in the space kept for them.
          <Suspense fallback={<FiltersPlaceholder labels={filterLabels} />}>
            <ListFilters
              entity={entity}
              names={screen?.filters ?? NO_FILTERS}
              filters={controls.filters}
              fixed={props.fixed}
              onFilters={controls.onFilters}
              onFiltersAhead={controls.onFiltersAhead}
              sortable={sortable}
              sort={state.sort}
              onSort={controls.onSort}
            />
          </Suspense>
        )}
        {props.filtered && (
          <Button
            variant="subtle"
            leftSection={<IconX size={14} />}
            onClick={() => {
              controls.clear();
              setSearchBox((n) => n + 1);
            }}
          >
            {ui('clearFilters')}
          </Button>
        )}
      </Group>
    </Card>
  );
}

function EmptyList({ filtered, plural }: { filtered: boolean; plural: string }) {
  return (
    <Stack align="center" gap={4} p="xl">
      <Text fw={600}>{filtered ? ui('emptyFiltered', { plural: inSentence(plural) }) : ui('emptyList')}</Text>
      {!filtered && (
        <Text c="dimmed" size="sm">
          {ui('emptyListHint', { plural: inSentence(plural) })}
        </Text>
      )}
    </Stack>
  );
}

/** The table's header row: "select all" when rows can be chosen, then the columns' labels. */
function ListHead(props: {
  entity: string;
  columns: readonly string[];
  choice: ReturnType<typeof useRowChoice> | undefined;
}) {
  const { model } = useRuntime();
  const { choice } = props;
  return (
    <Table.Thead>
      <Table.Tr>
        {choice && (
          <Table.Th w={40}>
            <Checkbox
              aria-label={ui('selectAllRows')}
              checked={choice.all}
              indeterminate={choice.some}
              onChange={choice.toggleAll}
            />
          </Table.Th>
        )}
        {props.columns.map((c) => (
          <Table.Th key={c} scope="col">
            {fieldLabel(model, props.entity, c)}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

function ListPager(props: { state: ListState; total: number; about: boolean; onPage(page: number): void }) {
  const { state, total } = props;
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {ui(props.about ? 'showingRowsAbout' : 'showingRows', {
          from: (state.page - 1) * PAGE_SIZE + 1,
          to: Math.min(state.page * PAGE_SIZE, total),
          total,
        })}
      </Text>
      {/* Mantine's Pagination is its own chunk: it shows once the total is known, which is
          rarely before the rows; an empty box of its height holds its place until then. */}
      <Suspense fallback={<Box h={32} aria-hidden="true" />}>
        <Pagination
          total={Math.ceil(total / PAGE_SIZE)}
          value={state.page}
          onChange={props.onPage}
          getControlProps={(control) => ({
            'aria-label':
              control === 'previous' ? ui('previousPage') : control === 'next' ? ui('nextPage') : undefined,
          })}
        />
      </Suspense>
    </Group>
  );
}

const BulkActions = lazyComponent(() => import('./BulkActions.tsx').then((m) => m.BulkActions));
// A list's secondary parts load once its first screen is painted (afterFirstScreen.ts).
const Pagination = lazyComponent(() =>
  afterFirstScreen()
    .then(() => import('./paginationChunk.ts'))
    .then((m) => m.Pagination),
);
const ColumnChooser = lazyComponent(() =>
  afterFirstScreen()
    .then(() => import('./ColumnChooser.tsx'))
    .then((m) => m.ColumnChooser),
);
const ListFilters = lazyComponent(() =>
  afterFirstScreen()
    .then(() => import('./ListFilters.tsx'))
    .then((m) => m.ListFilters),
);

/** The filters' labels over empty boxes of their size, hidden from assistive technology. */
function FiltersPlaceholder({ labels }: { labels: string[] }) {
  return (
    <>
      {labels.map((label) => (
        <FilterPlaceholder key={label} label={label} />
      ))}
    </>
  );
}

interface PageRowsProps {
  rows: readonly Row[];
  columns: readonly string[];
  entity: string;
  detail: RouteEntry | undefined;
  /** The chosen rows' ids; undefined when rows cannot be chosen. */
  chosen: ReadonlySet<string> | undefined;
  onToggle(id: string): void;
}

/**
 * How many rows a page's first render draws: what the list's scroll area shows (the window less
 * CHROME_HEIGHT, SCROLLER_STYLE) and one more. Each row drawn in that render is work inside the
 * click that asked for the page (a filter, "Next"), before its frame.
 */
function rowsOnScreen(): number {
  return Math.ceil(Math.max(window.innerHeight - CHROME_HEIGHT, ROW_HEIGHT * 4) / ROW_HEIGHT) + 1;
}

/**
 * How many of a page's rows to draw: when a page arrives, the rows that fit the screen, and the
 * rest of the page in transitions straight after (React renders them in slices between frames).
 * A page is at most PAGE_SIZE rows, so all of them end up in the document and scrolling renders
 * nothing; a virtualiser re-rendered on every scrolled frame and was 10 KB of the first screen's
 * JavaScript (docs/decisions.md, "A page of rows, not a virtualised list").
 */
function useRowsDrawn(rows: readonly Row[]): number {
  const [drawn, setDrawn] = useState(() => ({ rows, count: Math.min(rows.length, rowsOnScreen()) }));
  let current = drawn;
  if (drawn.rows !== rows) {
    // Another page (a page change, a filter, a sort) starts again from the screen's rows; the same
    // page changed in place (a live update, an edit) keeps what it drew: a list scrolled to its
    // last rows must not blank them for a frame.
    const samePage = rows.length > 0 && drawn.rows[0]?.id === rows[0]?.id;
    const count = samePage ? Math.max(drawn.count, rowsOnScreen()) : rowsOnScreen();
    current = { rows, count: Math.min(rows.length, count) };
    setDrawn(current);
  }
  // The rest a screen's height at a time: each step is one commit of new rows (DOM created,
  // styles applied), and a commit cannot be cut in slices the way React cuts a render; 35 rows
  // in one commit was a long task on a slow machine.
  useEffect(() => {
    if (current.count < rows.length)
      startTransition(() => setDrawn({ rows, count: Math.min(rows.length, current.count + rowsOnScreen()) }));
  }, [current.count, rows]);
  return current.count;
}

/**
 * The page's rows. A component of its own so that drawing the rest of a page re-renders only
 * the rows (each memoised), never the screen's filters and inputs.
 */
const PageRows = memo(function PageRows({ rows, columns, entity, detail, chosen, onToggle }: PageRowsProps) {
  const navigate = useNavigate();
  // The new page's first screen of rows comes in the commit that shows the change: deferred (a
  // transition) they showed a frame after the rest of it (status filter: total 59, rows 70 ms).
  // That commit is at most a screen of rows (useRowsDrawn), each memoised; the old page's are
  // unmounted.
  const drawn = useRowsDrawn(rows);
  const labels = usePageLabels(entity, rows);
  return (
    <PageLabelsContext value={labels}>
      <Table.Tbody>
        {rows.slice(0, drawn).map((row) => (
          <ListRow
            key={row.id}
            row={row}
            columns={columns}
            entity={entity}
            href={detail ? buildPath(detail, { id: row.id }) : undefined}
            navigate={navigate}
            chosen={chosen ? chosen.has(String(row.id)) : undefined}
            onToggle={onToggle}
          />
        ))}
        {drawn < rows.length && <tr aria-hidden style={{ height: (rows.length - drawn) * ROW_HEIGHT }} />}
      </Table.Tbody>
    </PageLabelsContext>
  );
});

interface ListRowProps {
  row: Row;
  columns: readonly string[];
  entity: string;
  href: string | undefined;
  navigate: (to: string) => unknown;
  chosen: boolean | undefined;
  onToggle(id: string): void;
}

const ListRow = memo(function ListRow({
  row,
  columns,
  entity,
  href,
  navigate,
  chosen,
  onToggle,
}: ListRowProps) {
  const { model } = useAppCore();
  // Plain <tr>/<td> with Mantine's Table classes and the attributes Table.Tr/Td would set (row
  // borders, hover): the page's rows are the most-drawn part of the app, and each Table.Td was
  // two components (Td and its Box, each resolving props and styles from context), some 300 of
  // some 1,700 renders of the first screen.
  return (
    <tr
      className={Table.classes.tr}
      data-with-row-border
      data-hover
      style={{ height: ROW_HEIGHT, cursor: href ? 'pointer' : undefined }}
      // A click on a link in the row is the link's (wouter's Link leaves a ctrl/shift click,
      // a new tab, to the browser without calling its own onClick, so it would reach the row).
      onClick={(ev) => href && !(ev.target as Element).closest('a') && navigate(href)}
    >
      {chosen !== undefined && (
        // biome-ignore lint/a11y/useKeyWithClickEvents: only keeps the checkbox's click from the row's navigation; the checkbox takes its own keys
        <td className={Table.classes.td} style={{ width: rem(40) }} onClick={(ev) => ev.stopPropagation()}>
          <PlainCheckbox
            aria-label={ui('selectRow', { title: rowTitle(model, entity, row) })}
            checked={chosen}
            onChange={() => onToggle(String(row.id))}
          />
        </td>
      )}
      {columns.map((c, i) => (
        <td key={c} className={Table.classes.td}>
          {i === 0 && href ? (
            <PlainLink look="text" to={href} onClick={(ev: MouseEvent) => ev.stopPropagation()}>
              <FieldValue entity={entity} name={c} row={row} />
            </PlainLink>
          ) : (
            <FieldValue entity={entity} name={c} row={row} />
          )}
        </td>
      ))}
    </tr>
  );
});
