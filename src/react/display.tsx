import { Badge, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconMinus } from '@tabler/icons-react';
import { type MouseEvent, type ReactNode, useContext } from 'react';
import { type Backend, BackendError, isHiddenField, type Row } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import { stateLabel } from '../runtime/availableTransitions.ts';
import { cellText } from '../runtime/cellText.ts';
import { currencyOf } from '../runtime/computedValues.ts';
import { dateText, timeAgo } from '../runtime/dateText.ts';
import { formatMessage } from '../runtime/formatMessage.ts';
import { moneyText } from '../runtime/moneyText.ts';
import { buildPath } from '../runtime/routeTable.ts';
import { ui } from '../runtime/uiText.ts';
import { valueOption } from '../runtime/valueOptions.ts';

import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import type { FieldSpec } from '../spec/types.ts';

import { useAppCore } from './context.ts';
import { useRow } from './hooks.ts';
import { LazyTooltip } from './LazyTooltip.tsx';
import { PlainBadge } from './PlainBadge.tsx';
import { PlainLink, PlainText } from './PlainText.tsx';
import { LABEL_STALE_MS, PageLabelsContext } from './usePageLabels.ts';

/** Colours for states: the state's position along the machine, final states grey. */
const PALETTE = ['blue', 'violet', 'orange', 'teal', 'grape', 'cyan', 'lime', 'pink'];

export function stateColor(model: AppModel, entity: string, state: string): string {
  const machine = model.machines.get(entity);
  if (!machine) return 'gray';
  if (machine.states.get(state)?.final) return 'gray';
  const i = [...machine.states.keys()].indexOf(state);
  return PALETTE[i % PALETTE.length] ?? 'gray';
}

/**
 * The text colour of a light badge of `color` that reads at 4.5:1 in both schemes: Mantine's own
 * falls below it for some colours (orange, yellow); the end shades do not. CSS picks the shade
 * (Mantine sets `color-scheme` on the root): `useComputedColorScheme` here cost every badge two
 * matchMedia listeners and a second render, on every list page.
 */
export function lightBadgeText(color: string): string {
  return `light-dark(color-mix(in srgb, var(--mantine-color-${color}-9) 70%, black), var(--mantine-color-${color}-2))`;
}

const STATE_LABEL = { whiteSpace: 'nowrap', overflow: 'visible', textOverflow: 'clip' } as const;
const OPTION_ROOT = { maxWidth: 'none', flexShrink: 0 } as const;
const OPTION_LABEL = { overflow: 'visible' } as const;

export function StatusBadge({ entity, state }: { entity: string; state: string }) {
  const { model } = useAppCore();
  const color = stateColor(model, entity, state);
  const text = lightBadgeText(color);
  return (
    <PlainBadge
      color={color}
      variant="light"
      // A state reads on one line ("Waiting on customer"), never cut to "…": its column (or the
      // list's scroll area) makes room for it.
      rootStyle={{ color: text, flexShrink: 0 }}
      labelStyle={STATE_LABEL}
    >
      {stateLabel(model, entity, state)}
    </PlainBadge>
  );
}

/**
 * The title of a row of `entity`: its title field as a cell shows it (an option's label, money in
 * its currency, a date), else its first text field, else its id shortened. A title that is a
 * reference would need a look-up, and falls through.
 */
export function rowTitle(model: AppModel, entity: string, row: Readonly<Record<string, unknown>>): string {
  const e = model.tables.get(entity)?.spec;
  const t = e?.title ? cellText(model, entity, e.title, row, () => undefined) : '';
  if (t !== '') return t;
  const firstText = Object.entries(e?.fields ?? {}).find(([, f]) => f.type === 'text')?.[0];
  const v = firstText ? row[firstText] : undefined;
  return typeof v === 'string' && v !== '' ? v : `#${String(row.id ?? '').slice(0, 8)}`;
}

/** A reference as a link to the referenced row's detail screen, when the app has one. */
export function RefLink({ entity, id }: { entity: string; id: string }) {
  const { routes } = useAppCore();
  const detail = routes.find('detail', entity);
  if (!detail) return <RefLabel entity={entity} id={id} />;
  return (
    // stopPropagation: inside a clickable list row, the link wins over the row.
    <PlainLink
      look="anchor"
      to={buildPath(detail, { id })}
      onClick={(ev: MouseEvent) => ev.stopPropagation()}
    >
      <RefLabel entity={entity} id={id} />
    </PlainLink>
  );
}

/**
 * The referenced row's title (fetched once, cached); "You" for the signed-in user. On a list page
 * the page's labels have it (usePageLabels.ts); elsewhere it looks the row up itself.
 */
export function RefLabel({ entity, id }: { entity: string; id: string }) {
  const { model, user } = useAppCore();
  const page = useContext(PageLabelsContext)?.get(entity, id);
  if (user?.id === id && model.profile === entity) return <>{ui('you')}</>;
  if (!page) return <RefLabelLookup entity={entity} id={id} />;
  return refLabelText('row' in page ? rowTitle(model, entity, page.row) : 'error' in page ? null : undefined);
}

function RefLabelLookup({ entity, id }: { entity: string; id: string }) {
  const { model } = useAppCore();
  const q = useRow(entity, id, LABEL_STALE_MS);
  return refLabelText(q.data ? rowTitle(model, entity, q.data) : q.isError ? null : undefined);
}

/** A reference's title; null: it cannot be read (shown as empty); undefined: not read yet. */
function refLabelText(label: string | null | undefined): ReactNode {
  if (typeof label === 'string') return <>{label}</>;
  if (label === null) return <PlainText dimmed>{ui('empty')}</PlainText>;
  return <PlainText dimmed>…</PlainText>;
}

/** One field's value for reading (lists, detail). */
export function FieldValue({
  entity,
  name,
  row,
}: {
  entity: string;
  name: string;
  row: Readonly<Record<string, unknown>>;
}) {
  const { model } = useAppCore();
  const f = model.tables.get(entity)?.spec.fields[name] ?? implicitField(name);
  // Withheld by the field's `read` rule on this row: said so, not shown as an empty value.
  if (isHiddenField(row, name))
    return (
      <PlainText dimmed italic title={ui('hiddenValueHint')}>
        {ui('hiddenValue')}
      </PlainText>
    );
  const v = row[name];
  return <>{renderValue(model, entity, name, f, v, row)}</>;
}

function implicitField(name: string): FieldSpec {
  return name === 'createdAt' || name === 'updatedAt' ? { type: 'datetime' } : { type: 'text' };
}

function renderValue(
  model: AppModel,
  entity: string,
  name: string,
  f: FieldSpec,
  v: unknown,
  row: Readonly<Record<string, unknown>>,
): ReactNode {
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) {
    return FIELD_TYPES[f.type].display === 'yesNo' ? (
      <IconMinus size={16} aria-label={ui('no')} />
    ) : (
      <PlainText dimmed>{ui('empty')}</PlainText>
    );
  }
  switch (FIELD_TYPES[f.type].display) {
    case 'status':
      return <StatusBadge entity={entity} state={String(v)} />;
    case 'option': {
      // Colour and label come from the spec (`values: [{ value, label?, color? }]`).
      const option = valueOption(model, entity, name, String(v));
      const color = option.color ?? 'gray';
      return (
        <PlainBadge
          variant="dot"
          color={color}
          // The dot in a shade that shows on both schemes (gray's filled shade vanished on dark).
          dotColor={`light-dark(var(--mantine-color-${color}-6), var(--mantine-color-${color}-4))`}
          // Short values (NORMAL) must never be cut to "NO…" in a narrow table column.
          rootStyle={OPTION_ROOT}
          labelStyle={OPTION_LABEL}
        >
          {option.label}
        </PlainBadge>
      );
    }
    case 'yesNo':
      return v ? (
        <IconCheck size={16} aria-label={ui('yes')} color="var(--mantine-color-teal-6)" />
      ) : (
        <IconMinus size={16} aria-label={ui('no')} />
      );
    case 'user': {
      const profile = model.profile;
      return profile ? <RefLabel entity={profile} id={String(v)} /> : String(v);
    }
    case 'ref':
      return f.ref ? <RefLink entity={f.ref} id={String(v)} /> : String(v);
    case 'date':
      return dateText(v);
    case 'datetime':
      return (
        <LazyTooltip label={dateText(v, { time: true })}>
          <span>{timeAgo(v)}</span>
        </LazyTooltip>
      );
    case 'money':
      return moneyText(v, currencyOf(model, entity, name, row));
    case 'tags':
      return (Array.isArray(v) ? v : [v]).map((t) => (
        <Badge key={String(t)} variant="outline" mr={4} radius="sm">
          {valueOption(model, entity, name, String(t)).label}
        </Badge>
      ));
    case 'multiline':
      return (
        // A long unbroken string (a URL, a pasted token) wraps inside its card instead of running out.
        <Text span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {String(v)}
        </Text>
      );
    default:
      return name === 'size' && typeof v === 'number' ? formatBytes(v) : String(v);
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1048576).toFixed(1)} MB`;
}

/** The catalogue message of any error (a BackendError's code, else the generic one). */
export function errorMessage(model: AppModel, error: unknown): string {
  if (error instanceof BackendError) return formatMessage(model, error.code, error.params);
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    const params = 'params' in error && error.params && typeof error.params === 'object' ? error.params : {};
    return formatMessage(model, error.code, params as Record<string, unknown>);
  }
  return formatMessage(model, 'UNKNOWN');
}

/**
 * The catalogue message, saying which row it is about when the refusal concerns another row than
 * the one acted on: submitting a claim refused because one of its lines needs a receipt names the
 * line ("Line “Taxi”: Expenses above 25 need a receipt."). The database names that row by
 * `entity` and `id` in the error's parameters.
 */
export async function errorMessageWithRow(
  model: AppModel,
  backend: Pick<Backend, 'data'>,
  error: unknown,
  actingOn: string,
): Promise<string> {
  const message = errorMessage(model, error);
  const params =
    error &&
    typeof error === 'object' &&
    'params' in error &&
    error.params &&
    typeof error.params === 'object'
      ? (error.params as Record<string, unknown>)
      : {};
  const { entity, id } = params;
  if (
    typeof entity !== 'string' ||
    typeof id !== 'string' ||
    entity === actingOn ||
    !model.tables.get(entity)?.spec
  )
    return message;
  const row = await backend.data.get(entity, id).catch(() => null);
  const label = model.tables.get(entity)?.spec?.label ?? entity;
  return ui('errorOnRow', {
    label,
    title: row ? rowTitle(model, entity, row) : `#${id.slice(0, 8)}`,
    message,
  });
}

export function notifyError(model: AppModel, error: unknown): void {
  notifications.show({
    color: 'red',
    message: errorMessage(model, error),
    closeButtonProps: { 'aria-label': ui('close') },
  });
}

/** `notifyError` for a message already worked out (`errorMessageWithRow`). */
export function notifyErrorMessage(message: string): void {
  notifications.show({ color: 'red', message, closeButtonProps: { 'aria-label': ui('close') } });
}

export function notifyOk(message: string): void {
  notifications.show({
    color: 'teal',
    message,
    icon: <IconCheck size={16} />,
    closeButtonProps: { 'aria-label': ui('close') },
  });
}

export type { Row };
