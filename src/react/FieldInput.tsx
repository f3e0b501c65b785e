import { Checkbox, MultiSelect, NumberInput, Select, TagsInput, Textarea, TextInput } from '@mantine/core';
import type { DateInputProps, DateTimePickerProps } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueries, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { type ComponentType, Suspense, useMemo, useRef, useState } from 'react';
import type { DataContext } from '../rules/evaluate.ts';
import { acceptedDay, acceptedValue } from '../runtime/acceptedValue.ts';
import { dateBounds } from '../runtime/dateBounds.ts';
import type { FormField } from '../runtime/formSchema.ts';
import { currentLocale, DATE_FORMATS } from '../runtime/locale.ts';
import { parseTypedDate } from '../runtime/typedDate.ts';
import { ui } from '../runtime/uiText.ts';
import { useAppCore, type WidgetProps } from './context.ts';
import { rowTitle } from './display.tsx';
import { rowQuery, useList, useRow } from './hooks.ts';
import { lazyComponent } from './lazyComponent.ts';

// @mantine/dates is a large package only forms with dates need: loaded on first use, so the list
// screen (which uses RefSelect from this file) does not carry it.
// The pickers name months and days through dayjs, in the reader's language: its German texts come
// with them (the rest of the app writes dates with Intl, src/runtime/dateText.ts).
const datePickers = () =>
  Promise.all([import('@mantine/dates'), import('dayjs/locale/de')]).then(([m]) => {
    dayjs.locale(currentLocale());
    return m;
  });
const LazyDateInput = lazyComponent(() => datePickers().then((m) => m.DateInput));
const LazyDateTimePicker = lazyComponent(() =>
  datePickers().then((m) => m.DateTimePicker as ComponentType<DateTimePickerProps>),
);

/**
 * Escape with the calendar open closes the calendar only: inside a dialog it would otherwise also
 * reach the dialog, close it and drop what was typed.
 */
function useEscapeStaysInPicker() {
  const [open, setOpen] = useState(false);
  return {
    popoverProps: {
      onOpen: () => setOpen(true),
      // After this key event: the Escape that closes the calendar must still be kept from the dialog.
      onClose: () => setTimeout(() => setOpen(false), 0),
    },
    // A Mantine dialog closes on Escape from a window listener in the capture phase, before the
    // field sees the key; it leaves alone an Escape whose target carries this attribute (as
    // Mantine's own Select does while its list is open).
    inputProps: open ? { 'data-mantine-stop-propagation': 'true' } : {},
  };
}

function DateInput(props: DateInputProps) {
  const picker = useEscapeStaysInPicker();
  return (
    <Suspense fallback={<TextInput label={props.label} description={props.description} disabled />}>
      <LazyDateInput
        {...props}
        {...picker.inputProps}
        popoverProps={{ ...props.popoverProps, ...picker.popoverProps }}
      />
    </Suspense>
  );
}

function DateTimePicker(props: DateTimePickerProps) {
  const picker = useEscapeStaysInPicker();
  return (
    <Suspense fallback={<TextInput label={props.label} description={props.description} disabled />}>
      <LazyDateTimePicker
        {...props}
        {...picker.inputProps}
        popoverProps={{ ...props.popoverProps, ...picker.popoverProps }}
      />
    </Suspense>
  );
}

/**
 * The input for one field: a registered widget (by field name, then by type) or the built-in
 * widget for its type. Labels, help and errors are wired for screen readers by Mantine.
 */
export function FieldInput(props: WidgetProps & { entity: string }) {
  const { components } = useAppCore();
  const { field } = props;
  const Custom = components.widgets?.[field.name] ?? components.widgets?.[field.type];
  if (Custom) return <Custom {...props} />;
  return <BuiltIn {...props} />;
}

/**
 * The field a dialog focuses when it opens: its first one, passing over searchable pickers (a
 * reference opens its list on focus, covering the dialog); none when every field is one (Mantine
 * then focuses the first button).
 */
export function firstFocusField(fields: readonly FormField[]): string | undefined {
  return fields.find((f) => f.widget !== 'ref' && f.widget !== 'user')?.name;
}

function common(field: FormField, error: string | undefined, disabled: boolean, autoFocus?: boolean) {
  return {
    // Mantine's focus trap focuses `data-autofocus` first, else the first button (Close); a date
    // picker loads lazily, after the trap has chosen, so it also takes focus as it mounts.
    ...(autoFocus ? { 'data-autofocus': true, autoFocus: true } : {}),
    label: field.label,
    description: disabled && !field.editable ? ui('readOnlyField') : field.help,
    error,
    disabled,
    required: field.required,
    name: field.name,
  };
}

// No `maxLength` attribute on text inputs: the browser would cut pasted text silently; the
// length rule's catalogue message says what is wrong instead, as the user types.
function BuiltIn({
  field,
  value,
  onChange,
  error,
  disabled,
  entity,
  row,
  autoFocus,
}: WidgetProps & { entity: string }) {
  const { model, user } = useAppCore();
  const roleData = useRoleHolders(entity, field.name);
  const parentData = useReferencedRows(entity, row, field.widget === 'select' || field.widget === 'tags');
  // An option a rule of this field refuses for this row is not offered (the line's currency must
  // be its claim's: only that one); the value already there always shows.
  const offered = (field.options ?? []).filter(
    (o) => o.value === value || acceptedValue(model, entity, field.name, o.value, row, user, parentData),
  );
  const c = common(field, error, disabled, autoFocus);
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  switch (field.widget) {
    case 'textarea':
      return (
        <Textarea
          {...c}
          autosize
          minRows={3}
          maxRows={12}
          value={text}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'number':
    case 'integer':
    case 'money':
      return (
        <NumberInput
          {...c}
          value={typeof value === 'number' ? value : text}
          allowDecimal={field.widget !== 'integer'}
          decimalScale={field.widget === 'money' ? 2 : undefined}
          fixedDecimalScale={field.widget === 'money'}
          min={field.limits.min}
          max={field.limits.max}
          // Out-of-range values stay as typed so the range rule's message can say what is wrong.
          clampBehavior="none"
          thousandSeparator=","
          onChange={(v) => onChange(v === '' ? null : v)}
        />
      );
    case 'checkbox':
      return (
        <Checkbox
          label={c.label}
          description={c.description}
          error={c.error}
          disabled={c.disabled}
          name={c.name}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
    case 'date':
    case 'datetime':
      return <DateField c={c} text={text} field={field} entity={entity} row={row} onChange={onChange} />;
    case 'select':
    case 'status':
      return (
        <Select
          {...c}
          placeholder={ui('selectPlaceholder')}
          data={offered.map((o) => ({ value: o.value, label: o.label }))}
          value={text || null}
          clearable={!field.required}
          allowDeselect={!field.required}
          onChange={(v) => onChange(v)}
        />
      );
    case 'ref':
    case 'user':
      return field.ref ? (
        <RefSelect
          {...c}
          entity={field.ref}
          accepts={(id) => acceptedValue(model, entity, field.name, id, row, user, roleData)}
          value={text || null}
          onChange={onChange}
          clearable={!field.required}
        />
      ) : (
        <TextInput {...c} value={text} onChange={(e) => onChange(e.currentTarget.value)} />
      );
    case 'tags':
      // Listed tags are picked by their labels and stored as their values; free tags are typed.
      return (field.options ?? []).length > 0 ? (
        <MultiSelect
          {...c}
          data={(field.options ?? []).map((o) => ({ value: o.value, label: o.label }))}
          value={Array.isArray(value) ? value.map(String) : []}
          searchable
          clearable
          onChange={(v) => onChange(v)}
        />
      ) : (
        <TagsInput
          {...c}
          data={[...(field.values ?? [])]}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={(v) => onChange(v)}
        />
      );
    case 'email':
      return <TextInput {...c} type="email" value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
    default:
      return <TextInput {...c} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
}

type Common = ReturnType<typeof common>;

/** A date or date-and-time field: the calendar offers only what the field's rules allow. */
function DateField({
  c,
  text,
  field,
  entity,
  row,
  onChange,
}: Pick<WidgetProps, 'field' | 'row' | 'onChange'> & { c: Common; text: string; entity: string }) {
  const { model, user } = useAppCore();
  // Days the field's rules refuse are not offered (greyed out, not selectable).
  const excludeDate = (day: string) =>
    !acceptedDay(
      model,
      entity,
      field.name,
      field.widget === 'date' ? 'date' : 'datetime',
      dayjs(day).format('YYYY-MM-DD'),
      row,
      user,
    );
  // The first and last day (and time) the field's rules allow (`dueAt >= now`): the calendar opens
  // on an allowed month and cannot be paged past them.
  const bounds = dateBounds(model, entity, field.name, row, user);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const moment = (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss');
  if (field.widget === 'date')
    return (
      <DateInput
        {...c}
        clearable
        value={text ? text.slice(0, 10) : null}
        excludeDate={excludeDate}
        // Typed dates are not bounded (Mantine would drop an out-of-range one without a word): the
        // rule's own message says what is wrong. The calendar opens on an allowed month, and the
        // days the rules refuse are greyed out (excludeDate).
        {...(bounds.min !== undefined || bounds.max !== undefined
          ? {
              defaultDate: day(
                Math.min(Math.max(Date.now(), bounds.min ?? -Infinity), bounds.max ?? Infinity),
              ),
            }
          : {})}
        locale={currentLocale()}
        valueFormat={DATE_FORMATS[currentLocale()].date}
        // Typed as the person writes dates (12/10/2026, 10.12.2026), not only as shown.
        dateParser={(typed) => parseTypedDate(typed, currentLocale())}
        onChange={(v) => onChange(v ? dayjs(v).format('YYYY-MM-DD') : null)}
      />
    );
  return (
    <DateTimePicker
      {...c}
      clearable
      value={text ? dayjs(text).format('YYYY-MM-DD HH:mm:ss') : null}
      excludeDate={excludeDate}
      {...(bounds.min !== undefined ? { minDate: moment(bounds.min) } : {})}
      {...(bounds.max !== undefined ? { maxDate: moment(bounds.max) } : {})}
      locale={currentLocale()}
      valueFormat={DATE_FORMATS[currentLocale()].dateTime}
      onChange={(v) => onChange(v ? dayjs(v).toISOString() : null)}
    />
  );
}

const unknownRows = (): never => {
  throw new Error('not loaded');
};

/**
 * The rows this row references (a line's claim), as a data context for the rules of a field
 * whose options they decide (`currency = claim.currency`). A row not loaded yet, and any other
 * read, throws: the rule is then the server's and every option stays offered.
 */
function useReferencedRows(
  entity: string,
  row: Readonly<Record<string, unknown>>,
  wanted: boolean,
): DataContext | undefined {
  const { model, backend } = useAppCore();
  const refs = Object.entries(model.tables.get(entity)?.spec.fields ?? {})
    .filter(
      ([name, f]) =>
        f.type === 'ref' && f.ref !== undefined && typeof row[name] === 'string' && row[name] !== '',
    )
    .map(([name, f]) => ({ entity: f.ref as string, id: row[name] as string }));
  const results = useQueries({
    queries: (wanted ? refs : []).map((r) => ({ ...rowQuery(backend, r.entity, r.id), staleTime: 30_000 })),
  });
  const loaded = results.map((q) => q.data);
  const key = `${refs.map((r) => `${r.entity}:${r.id}`).join()}|${loaded.map((d) => (d ? d.version : '-')).join()}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names the rows and their loaded versions.
  return useMemo(() => {
    if (!wanted || refs.length === 0) return undefined;
    const byKey = new Map<string, Record<string, unknown>>();
    refs.forEach((r, i) => {
      const d = loaded[i];
      if (d) byKey.set(`${r.entity}:${r.id}`, d);
    });
    return {
      rows: unknownRows,
      profile: unknownRows,
      get: (e, id) => byKey.get(`${e}:${id}`) ?? unknownRows(),
    };
  }, [wanted, key]);
}

/**
 * Who holds the roles the field's rules name (`assignee is agent`), as a data context for the
 * rules: the options then are only people the rules accept. Undefined while loading, on a
 * backend without the lookup, or for a field no such rule names (the server then judges).
 */
function useRoleHolders(entity: string, field: string): DataContext | undefined {
  const { model, backend } = useAppCore();
  const roles = useMemo(
    () =>
      [
        ...new Set(
          model.rolesNamedByRules
            .filter((n) => n.entity === entity && n.field === field)
            .flatMap((n) => n.roles),
        ),
      ].sort(),
    [model, entity, field],
  );
  const lookup = backend.admin.roleHolders?.bind(backend.admin);
  const q = useQuery({
    queryKey: ['__roleHolders', roles.join()],
    queryFn: async () => (await Promise.all(roles.map((r) => lookup?.(r) ?? []))).flat(),
    enabled: roles.length > 0 && lookup !== undefined,
    staleTime: 60_000,
    retry: false,
  });
  return useMemo(() => {
    if (!q.data) return undefined;
    const byUser = new Map<string, string[]>();
    for (const h of q.data) byUser.set(h.userId, [...(byUser.get(h.userId) ?? []), h.role]);
    return { rows: unknownRows, get: unknownRows, profile: unknownRows, roles: (id) => byUser.get(id) ?? [] };
  }, [q.data]);
}

/**
 * A searchable select over the rows of another entity (the user may read). Searches on the
 * server as the user types, so it works for thousands of rows.
 */
export function RefSelect(props: {
  entity: string;
  value: string | null;
  onChange(v: string | null): void;
  label?: string;
  description?: string | undefined;
  error?: string | undefined;
  disabled?: boolean;
  required?: boolean;
  clearable?: boolean;
  placeholder?: string;
  name?: string;
  /** Only options the field's rules accept (the current value always shows). */
  accepts?: (id: string) => boolean;
}) {
  const { model } = useAppCore();
  const { entity, value, onChange, accepts, ...rest } = props;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 200);
  // Options load when the dropdown first opens: a list screen's filter bar has several of these,
  // and none needs its options before someone opens it.
  const [opened, setOpened] = useState(false);
  const current = useRow(value ? entity : undefined, value ?? undefined);
  // A searchable select puts the chosen option's label in its search box: that is not a search
  // (an edit form with a value would otherwise offer only the current value).
  const term = value && current.data && debounced === rowTitle(model, entity, current.data) ? '' : debounced;
  const list = useList(
    entity,
    // More rows when some are left out by the field's rules, so the options are not all gone.
    { search: term || undefined, limit: accepts ? 200 : 30, count: 'none' },
    opened || term !== '',
    false,
  );
  const data = new Map<string, string>();
  for (const r of list.data?.rows ?? [])
    if (!accepts || accepts(r.id)) data.set(r.id, rowTitle(model, entity, r));
  if (value && current.data) data.set(value, rowTitle(model, entity, current.data));
  // The chosen option stays among the options while its row or the list is read again (after a
  // refusal, a search, a rule leaving it out): Mantine blanks the box on blur when the value has
  // no option, which reads as a lost choice although the value is still set.
  const chosen = useRef<{ id: string; label: string } | undefined>(undefined);
  if (value && data.has(value)) chosen.current = { id: value, label: data.get(value) as string };
  else if (value && chosen.current?.id === value) data.set(value, chosen.current.label);
  return (
    <Select
      {...rest}
      placeholder={rest.placeholder ?? ui('searchToSelect')}
      searchable
      clearable={rest.clearable}
      // Choosing the option already chosen keeps it (a form prefilled by its link, /projects/new?
      // organisation=…, was emptied by a click on the same organisation); an optional field is
      // emptied by its clear button or by clicking its option again, as the status select.
      allowDeselect={!rest.required}
      onSearchChange={setSearch}
      onDropdownOpen={() => setOpened(true)}
      filter={({ options }) => options}
      nothingFoundMessage={list.isFetching ? ui('loading') : ui('emptyList')}
      data={[...data].map(([v, label]) => ({ value: v, label }))}
      value={value}
      onChange={(v) => onChange(v)}
    />
  );
}
