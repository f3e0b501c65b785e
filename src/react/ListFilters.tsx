import { ActionIcon, Box, Select, Tooltip } from '@mantine/core';
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { memo, useCallback, useMemo, useRef } from 'react';
import type { Filter } from '../backend/types.ts';
import { ui } from '../runtime/uiText.ts';
import { valueOptions } from '../runtime/valueOptions.ts';
import { useAppCore } from './context.ts';
import { RefSelect } from './FieldInput.tsx';
import { FilterPlaceholder } from './FilterPlaceholder.tsx';
import { fieldLabel } from './labels.ts';
import { useMountedInTurn } from './useMountedInTurn.ts';

/**
 * A list screen's filters and its sort field and direction: Mantine's Select and the combobox
 * family, a chunk of their own that the list's first rows do not wait for (ListScreen.tsx).
 * Each field is memoised on its own value: choosing a status re-renders the status filter, not
 * every combobox of the screen (each some 25 components) in the same frame as the new rows.
 */
export const ListFilters = memo(function ListFilters(props: {
  entity: string;
  /** The screen's filter fields, in order. */
  names: readonly string[];
  filters: Readonly<Record<string, string>>;
  /** The screen rule's plain filters: a field it fixes (`status in (a, b)`) offers only those values. */
  fixed: readonly Filter[];
  onFilters(filters: Record<string, string>): void;
  /** Asks ahead for the rows of filters the person may choose next (a filter's list opened). */
  onFiltersAhead?(choices: readonly Record<string, string>[]): void;
  sortable: readonly string[];
  /** `field` or `-field` (descending). */
  sort: string | undefined;
  onSort(sort: string | undefined): void;
}) {
  const { entity, filters, onFilters, onFiltersAhead } = props;
  const { model } = useAppCore();
  const allowed = useMemo(() => allowedValues(props.fixed), [props.fixed]);
  const latest = useRef(filters);
  latest.current = filters;
  const readAhead = useCallback(
    (name: string, values: readonly string[]) =>
      onFiltersAhead?.(values.map((v) => ({ ...latest.current, [name]: v }))),
    [onFiltersAhead],
  );
  const setFilter = useCallback(
    (name: string, v: string | null) => {
      const next = { ...latest.current };
      if (v) next[name] = v;
      else delete next[name];
      onFilters(next);
    },
    [onFilters],
  );
  // One combobox a task (the sort field last), each in its placeholder's place until then.
  const mounted = useMountedInTurn(props.names.length + 1);
  return (
    <>
      {props.names.map((name, i) =>
        i < mounted ? (
          <FilterField
            key={name}
            entity={entity}
            name={name}
            value={filters[name] ?? null}
            allowed={allowed.get(name)}
            onChange={setFilter}
            onOpen={readAhead}
          />
        ) : model.tables.get(entity)?.spec.fields[name] ? (
          <FilterPlaceholder key={name} label={fieldLabel(model, entity, name)} />
        ) : null,
      )}
      {mounted > props.names.length ? (
        <SortField entity={entity} sortable={props.sortable} sort={props.sort} onSort={props.onSort} />
      ) : (
        <FilterPlaceholder label={ui('sortBy')} />
      )}
    </>
  );
});

const FilterField = memo(function FilterField({
  entity,
  name,
  value,
  allowed,
  onChange,
  onOpen,
}: {
  entity: string;
  name: string;
  value: string | null;
  /** The only values the screen's rule lets rows hold (undefined: any). */
  allowed: readonly string[] | undefined;
  onChange(name: string, value: string | null): void;
  /** The filter's list opened, with these values to choose from. */
  onOpen(name: string, values: readonly string[]): void;
}) {
  const { model } = useAppCore();
  const f = model.tables.get(entity)?.spec.fields[name];
  if (!f) return null;
  const label = fieldLabel(model, entity, name);
  const setValue = (v: string | null) => onChange(name, v);
  if ((f.type === 'ref' || f.type === 'user') && (f.ref ?? model.profile)) {
    return (
      <Box style={{ flex: '0 1 200px' }}>
        <RefSelect
          entity={f.ref ?? model.profile ?? ''}
          label={label}
          value={value}
          onChange={setValue}
          clearable
          placeholder={ui('filterAny')}
        />
      </Box>
    );
  }
  const data =
    f.type === 'boolean'
      ? [
          { value: 'true', label: ui('yes') },
          { value: 'false', label: ui('no') },
        ]
      : valueOptions(model, entity, name).map((o) => ({ value: o.value, label: o.label }));
  // A value the screen's rule rules out would only ever show an empty list.
  const offered = allowed ? data.filter((o) => allowed.includes(o.value)) : data;
  return (
    <Select
      label={label}
      placeholder={ui('filterAny')}
      data={offered}
      value={value}
      onChange={setValue}
      // The rows of each other choice are asked while the list is open: the click then shows them
      // at once (useListAddress), as "Next page" shows the page read ahead.
      onDropdownOpen={() =>
        onOpen(
          name,
          offered.map((o) => o.value).filter((v) => v !== value),
        )
      }
      clearable
      style={{ flex: '0 1 170px' }}
    />
  );
});

const SortField = memo(function SortField({
  entity,
  sortable,
  sort,
  onSort,
}: {
  entity: string;
  sortable: readonly string[];
  sort: string | undefined;
  onSort(sort: string | undefined): void;
}) {
  const { model } = useAppCore();
  const sortField = sort?.replace(/^-/, '');
  const desc = sort?.startsWith('-') ?? false;
  return (
    <>
      <Select
        label={ui('sortBy')}
        data={sortable.map((c) => ({ value: c, label: fieldLabel(model, entity, c) }))}
        value={sortField ?? null}
        onChange={(v) => onSort(v ? `${desc ? '-' : ''}${v}` : undefined)}
        style={{ flex: '0 1 160px' }}
      />
      <Tooltip label={desc ? ui('sortDescending') : ui('sortAscending')}>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={desc ? ui('sortDescending') : ui('sortAscending')}
          onClick={() => sortField && onSort(desc ? sortField : `-${sortField}`)}
        >
          {desc ? <IconSortDescending size={18} /> : <IconSortAscending size={18} />}
        </ActionIcon>
      </Tooltip>
    </>
  );
});

/** Per field, the values the screen's rule allows (`status = a`, `status in (a, b)`), as text. */
function allowedValues(fixed: readonly Filter[]): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const f of fixed) {
    if (f.op === 'eq') out.set(f.field, [String(f.value)]);
    else if (f.op === 'in' && Array.isArray(f.value)) out.set(f.field, f.value.map(String));
  }
  return out;
}
