import { ActionIcon, Box, Select, Tooltip } from '@mantine/core';
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { memo } from 'react';
import { ui } from '../runtime/uiText.ts';
import { valueOptions } from '../runtime/valueOptions.ts';
import { useRuntime } from './context.ts';
import { RefSelect } from './FieldInput.tsx';
import { fieldLabel } from './labels.ts';

/**
 * A list screen's filters and its sort field and direction: Mantine's Select and the combobox
 * family, a chunk of their own that the list's first rows do not wait for (ListScreen.tsx).
 */
export const ListFilters = memo(function ListFilters(props: {
  entity: string;
  /** The screen's filter fields, in order. */
  names: readonly string[];
  filters: Readonly<Record<string, string>>;
  onFilters(filters: Record<string, string>): void;
  sortable: readonly string[];
  /** `field` or `-field` (descending). */
  sort: string | undefined;
  onSort(sort: string | undefined): void;
}) {
  const { spec } = useRuntime();
  const { entity, filters } = props;
  const e = spec.entities[entity];
  const sortField = props.sort?.replace(/^-/, '');
  const desc = props.sort?.startsWith('-') ?? false;
  return (
    <>
      {props.names.map((name) => {
        const f = e?.fields[name];
        if (!f) return null;
        const label = fieldLabel(spec, entity, name);
        const value = filters[name] ?? null;
        const setValue = (v: string | null) => {
          const next = { ...filters };
          if (v) next[name] = v;
          else delete next[name];
          props.onFilters(next);
        };
        if ((f.type === 'ref' || f.type === 'user') && (f.ref ?? profileOf(spec))) {
          return (
            <Box key={name} style={{ flex: '0 1 200px' }}>
              <RefSelect
                entity={f.ref ?? profileOf(spec) ?? ''}
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
            : valueOptions(spec, entity, name).map((o) => ({ value: o.value, label: o.label }));
        return (
          <Select
            key={name}
            label={label}
            placeholder={ui('filterAny')}
            data={data}
            value={value}
            onChange={setValue}
            clearable
            style={{ flex: '0 1 170px' }}
          />
        );
      })}
      <Select
        label={ui('sortBy')}
        data={props.sortable.map((c) => ({ value: c, label: fieldLabel(spec, entity, c) }))}
        value={sortField ?? null}
        onChange={(v) => props.onSort(v ? `${desc ? '-' : ''}${v}` : undefined)}
        style={{ flex: '0 1 160px' }}
      />
      <Tooltip label={desc ? ui('sortDescending') : ui('sortAscending')}>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={desc ? ui('sortDescending') : ui('sortAscending')}
          onClick={() => sortField && props.onSort(desc ? sortField : `-${sortField}`)}
        >
          {desc ? <IconSortDescending size={18} /> : <IconSortAscending size={18} />}
        </ActionIcon>
      </Tooltip>
    </>
  );
});

function profileOf(spec: { entities: Record<string, { profile?: boolean }> }): string | undefined {
  return Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
}
