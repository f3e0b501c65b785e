import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  FileButton,
  Grid,
  Group,
  Select,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Timeline,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowRight,
  IconDownload,
  IconEdit,
  IconInfoCircle,
  IconPaperclip,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { type HistoryEntry, isHiddenField, type Row } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import type { DataContext } from '../rules/evaluate.ts';
import { availableTransitions, stateLabel } from '../runtime/availableTransitions.ts';
import { can } from '../runtime/can.ts';
import { dateText, timeAgo } from '../runtime/dateText.ts';
import { formatMessage } from '../runtime/formatMessage.ts';
import { formRules } from '../runtime/formRules.ts';
import { inSentence } from '../runtime/locale.ts';
import { offersFlag } from '../runtime/offersFlag.ts';
import { type PendingSum, pendingSum } from '../runtime/pendingSum.ts';
import { quickAddField } from '../runtime/quickAddField.ts';
import { relatedAddLink } from '../runtime/relatedAddLink.ts';
import { buildPath, type RouteEntry } from '../runtime/routeTable.ts';
import { refuses, ruleVerdict } from '../runtime/ruleVerdict.ts';
import { snippetSource } from '../runtime/snippetSource.ts';
import { ui } from '../runtime/uiText.ts';
import { FIELD_TYPES } from '../spec/fieldTypes.ts';
import { AddRowButton, inheritedValues } from './AddRowDialog.tsx';
import { useRuntime } from './context.ts';
import {
  errorMessage,
  FieldValue,
  formatBytes,
  lightBadgeText,
  notifyError,
  RefLabel,
  rowTitle,
  StatusBadge,
} from './display.tsx';
import {
  invalidateParentHistories,
  invalidateRecomputed,
  keys,
  useCreate,
  useHistory,
  useList,
  useRow,
} from './hooks.ts';
import { CountFailed, LoadFailed } from './LoadFailed.tsx';
import { fieldLabel } from './labels.ts';
import { useNavigate, useParams } from './navigation.ts';
import { PageCrumbs, useTrail } from './PageCrumbs.tsx';
import { NotFoundPage } from './pages.tsx';
import { useTransitionRunner } from './TransitionDialog.tsx';
import { UploadProgress, useUploadProgress } from './UploadProgress.tsx';
import { deleteWithUndo } from './undoToast.tsx';

/** A detail screen: fields, actions (transitions), related lists and the history timeline. */
export function DetailScreen({ route }: { route: RouteEntry }) {
  const { model } = useRuntime();
  const params = useParams();
  const id = params[route.rowParam ?? 'id'];
  const entity = route.entity ?? '';
  const e = model.tables.get(entity)?.spec;
  const q = useRow(entity, id);
  const trail = useTrail(entity, q.data);
  const history = useHistory(entity, model.machines.has(entity) ? id : undefined);
  const runner = useTransitionRunner(entity);
  if (q.isLoading) return <Skeleton height={320} radius="md" />;
  if (q.isError || !q.data) {
    return <NotFoundPage message={ui('rowNotFound', { label: inSentence(e?.label ?? entity) })} />;
  }
  const row = q.data;
  const machine = model.machines.get(entity);
  const status = machine ? String(row[machine.field] ?? '') : undefined;
  const related = model.screens.get(route.name)?.spec?.related ?? [];

  return (
    <Stack gap="lg">
      <PageCrumbs items={[...trail, { label: rowTitle(model, entity, row) }]} />
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={6} style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Group gap="sm">
            {status && <StatusBadge entity={entity} state={status} />}
            <Text size="sm" c="dimmed">
              {ui('created', { when: timeAgo(row.createdAt) })}
            </Text>
          </Group>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {rowTitle(model, entity, row)}
          </Title>
        </Stack>
        <DetailActions entity={entity} row={row} route={route} runner={runner} />
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <DetailFields entity={entity} row={row} />
            {related.map((r) => (
              <RelatedList key={r} pair={r} parent={row} parentEntity={entity} />
            ))}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          {machine && <HistoryCard entity={entity} row={row} entries={history.data ?? []} />}
        </Grid.Col>
      </Grid>
      {runner.dialog}
    </Stack>
  );
}

/** The row's actions (its transitions, Edit, Delete), each disabled one with its reason. */
function DetailActions({
  entity,
  row,
  route,
  runner,
}: {
  entity: string;
  row: Row;
  route: RouteEntry;
  runner: ReturnType<typeof useTransitionRunner>;
}) {
  const { model, user, routes, backend } = useRuntime();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const options = availableTransitions(model, user, entity, row);
  const edit = routes.find('form', entity, 'edit');
  const list = routes.routes.find((r) => r.kind === 'list' && r.entity === entity && r.params.length === 0);
  const canEdit = edit && can(model, user, entity, 'update', row).ok;
  const canDelete = can(model, user, entity, 'delete', row).ok;
  // No "are you sure": the row goes at once and the toast offers Undo (sent when it goes).
  const onDelete = () => {
    const label = model.tables.get(entity)?.spec.label ?? entity;
    deleteWithUndo({
      id: row.id,
      message: ui('deletedToast', { label }),
      send: () =>
        backend.data
          .delete(entity, row.id)
          .then(() =>
            Promise.all([
              qc.invalidateQueries({ queryKey: keys.entity(entity) }),
              invalidateRecomputed(qc, model, entity),
            ]),
          ),
      onUndo: () => navigate(buildPath(route, { id: row.id })),
      onError: (err) => notifyError(model, err),
    });
    navigate(list ? buildPath(list) : '/');
  };
  return (
    <Stack gap={4} align="flex-end" style={{ maxWidth: '100%' }}>
      <Group gap="xs" wrap="wrap" aria-label={ui('actions')} role="group">
        {options.map((o) => (
          <Tooltip key={o.name} label={o.reason ?? ''} disabled={o.allowed} multiline w={240}>
            {/* span so the tooltip still works on a disabled button */}
            <span>
              <Button
                variant={model.machines.get(entity)?.states.get(o.to)?.final ? 'default' : 'filled'}
                rightSection={<IconArrowRight size={14} />}
                disabled={!o.allowed || runner.busy}
                aria-description={o.reason}
                onClick={() => runner.start(o, row)}
              >
                {o.label}
              </Button>
            </span>
          </Tooltip>
        ))}
        {canEdit && (
          <Button
            variant="default"
            leftSection={<IconEdit size={16} />}
            component={Link}
            to={buildPath(edit, { id: row.id })}
          >
            {ui('edit')}
          </Button>
        )}
        {/* Said in words: an icon alone went unseen (issue 31). */}
        {canDelete && (
          <Button variant="default" color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
            {ui('delete')}
          </Button>
        )}
      </Group>
      {/* Why a button is disabled, visible without hovering (touch screens have no hover); screen
          readers hear it as the button's description already. */}
      {options
        .filter((o) => !o.allowed && o.reason)
        .map((o) => (
          <Text key={o.name} size="xs" c="dimmed" ta="right" aria-hidden="true" maw={420}>
            {o.label}: {o.reason}
          </Text>
        ))}
    </Stack>
  );
}

/** The row's fields (not its title or status), empty optional ones left out. */
function DetailFields({ entity, row }: { entity: string; row: Row }) {
  const { model } = useRuntime();
  const e = model.tables.get(entity)?.spec;
  const machine = model.machines.get(entity);
  const shown = Object.keys(e?.fields ?? {}).filter((f) => f !== machine?.field && f !== e?.title);
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h4" mb="md">
        {ui('details')}
      </Title>
      <Grid gap="md">
        {shown.map((f) => {
          const spec_ = e?.fields[f];
          const long = spec_ !== undefined && FIELD_TYPES[spec_.type].display === 'multiline';
          // A field only some may read comes empty where the person may not: it says "Hidden"
          // (the row lists it as withheld), never an empty value that looks like data.
          const hidden = isHiddenField(row, f);
          const empty = !hidden && (row[f] === null || row[f] === undefined || row[f] === '');
          const running = pendingSum(model, entity, f, row);
          // Empty optional fields are noise on a detail page (they show on the edit form).
          if (!running && !spec_?.required && empty) return null;
          return (
            <Grid.Col key={f} span={{ base: 12, sm: long ? 12 : 6 }} miw={0}>
              <Group gap={4} wrap="nowrap">
                <Text size="xs" tt="uppercase" fw={600} c="dimmed">
                  {fieldLabel(model, entity, f)}
                </Text>
                {spec_?.help && (
                  <Tooltip label={spec_.help} multiline w={260}>
                    <IconInfoCircle size={14} aria-label={spec_.help} color="var(--mantine-color-dimmed)" />
                  </Tooltip>
                )}
              </Group>
              {/* Long unbroken text wraps inside the card instead of running past its edge. */}
              <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                {running ? (
                  <RunningSum entity={entity} name={f} row={row} sum={running} />
                ) : (
                  <FieldValue entity={entity} name={f} row={row} />
                )}
              </div>
            </Grid.Col>
          );
        })}
      </Grid>
    </Card>
  );
}

/** The row's history: transitions with their states, edits (old → new) and added rows, with what was written. */
function HistoryCard({
  entity,
  row,
  entries,
}: {
  entity: string;
  row: Row;
  entries: readonly HistoryEntry[];
}) {
  const { model } = useRuntime();
  const e = model.tables.get(entity)?.spec;
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h4" mb="md">
        {ui('history')}
      </Title>
      {entries.length === 0 ? (
        <Text c="dimmed" size="sm">
          {ui('noHistory')}
        </Text>
      ) : (
        <Timeline active={entries.length} bulletSize={14} lineWidth={2}>
          {entries.map((h) => (
            <Timeline.Item key={h.id} title={historyTitle(model, entity, h)}>
              {h.kind === 'transition' && (
                <Text size="sm">
                  {stateLabel(model, entity, h.fromState)} → {stateLabel(model, entity, h.toState)}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {h.actor ? (
                  <ProfileName id={h.actor} />
                ) : h.kind === 'transition' ? (
                  ui('historyBySystem')
                ) : null}
                {h.actor || h.kind === 'transition' ? ' · ' : ''}
                {dateText(h.at, { time: true })}
              </Text>
              {h.kind !== 'added' &&
                Object.keys(h.input ?? {})
                  .filter((k) => e?.fields[k])
                  .map((k) => (
                    <Text
                      key={k}
                      size="xs"
                      mt={4}
                      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                    >
                      <b>{fieldLabel(model, entity, k)}:</b>{' '}
                      {h.kind === 'edit' && Object.hasOwn(h.previous ?? {}, k) && (
                        // What it was, formatted as the new value is (an edit recorded before
                        // old values were kept shows the new value alone).
                        <>
                          <FieldValue entity={entity} name={k} row={{ ...row, ...h.previous }} />
                          {' → '}
                        </>
                      )}
                      {h.input[k] === null || h.input[k] === '' ? (
                        ui('historyEmptied')
                      ) : (
                        // Shown as on the page: names for people and references, local dates, labels.
                        <FieldValue entity={entity} name={k} row={{ ...row, ...h.input }} />
                      )}
                    </Text>
                  ))}
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Card>
  );
}

/** The sum a transition will store, as it stands now (the children's values, live). */
function RunningSum({ entity, name, row, sum }: { entity: string; name: string; row: Row; sum: PendingSum }) {
  const children = useList(sum.entity, {
    filters: [{ field: sum.parentField, op: 'eq', value: row.id }],
    limit: 1000,
    count: 'none',
  });
  if (!children.data && children.error) return <CountFailed error={children.error} />;
  if (!children.data) return <Skeleton height={16} width={80} aria-label={ui('loading')} />;
  const total = children.data.rows.reduce((a, r) => a + (Number(r[sum.field]) || 0), 0);
  // Cents, not binary fractions: 0.1 + 0.2 shows as 0.30.
  return <FieldValue entity={entity} name={name} row={{ ...row, [name]: Math.round(total * 100) / 100 }} />;
}

/** What one history entry says happened: the transition, "Edited", or "Comment added". */
function historyTitle(model: AppModel, entity: string, h: HistoryEntry): string {
  if (h.kind === 'edit') return ui('historyEdited');
  if (h.kind === 'added')
    return ui('historyAdded', { label: model.tables.get(h.transition)?.spec?.label ?? h.transition });
  return model.machines.get(entity)?.spec.transitions[h.transition]?.label ?? h.transition;
}

function ProfileName({ id }: { id: string }) {
  const { model } = useRuntime();
  const profile = model.profile;
  return profile ? <RefLabel entity={profile} id={id} /> : id;
}

/** Rows of another entity pointing at this one (`comment.ticket`), with a quick add. */
function RelatedList({ pair, parent, parentEntity }: { pair: string; parent: Row; parentEntity: string }) {
  const { model, user, routes } = useRuntime();
  const [entity = '', field = ''] = pair.split('.');
  const e = model.tables.get(entity)?.spec;
  const list = useList(entity, {
    filters: [{ field, op: 'eq', value: parent.id }],
    sort: [{ field: 'createdAt', direction: 'asc' }],
    limit: 200,
  });
  const create = useCreate(entity);
  const rows = list.data?.rows ?? [];
  // A role that may not read the child entity sees no list (not an empty one with a false 0).
  if (!e || !can(model, user, entity, 'read').ok) return null;
  const detail = routes.find('detail', entity);
  const editForm = routes.find('form', entity, 'edit');
  // What a list of this entity would show (fields marked `list`), minus what the row already says:
  // its title, the parent it sits under, its owner, and currencies shown with their amounts.
  const currencyFields = new Set(Object.values(e.fields).map((f) => f.currencyField));
  const summary = Object.entries(e.fields)
    .filter(
      ([n, f]) =>
        f.list && n !== e.title && n !== field && !f.owner && !currencyFields.has(n) && f.type !== 'status',
    )
    .map(([n]) => n);
  const plural = e.plural ?? e.label;
  // What a new child row gets from this parent; undefined when it needs more than the page knows.
  const inherited = inheritedValues(model, entity, field, parent, parentEntity);
  const draftBase = inherited ?? { [field]: parent.id };
  // Only the parent is known here; a rule reading any other row is left to the server (throws).
  const notLoaded = (): never => {
    throw new Error('not loaded');
  };
  const parentData = {
    get: (x: string, id: string) => (x === parentEntity && id === parent.id ? parent : notLoaded()),
    rows: notLoaded,
    profile: notLoaded,
  };
  const mayCreate = inherited !== undefined && can(model, user, entity, 'create', draftBase, parentData).ok;
  const addLink = relatedAddLink(model, routes, entity, field, parent.id);
  const owner = Object.entries(e.fields).find(([, f]) => f.owner)?.[0];
  const flags = Object.entries(e.fields).filter(([n, f]) => f.type === 'boolean' && n !== field);
  // The quick box asks for the text (and the flags) only; a child needing more gets the full form.
  const body = quickAddField(model, entity, field, draftBase);
  const shape: RelatedShape = { owner, flags: flags.map(([n]) => n), body, summary, files: e.files === true };
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="sm">
        <RelatedTitle
          plural={plural}
          count={list.data ? (list.data.total ?? rows.length) : list.error ? null : undefined}
        />
        {e.files && mayCreate && (
          <FileUpload
            entity={entity}
            parentField={field}
            parent={parent}
            values={draftBase}
            existing={rows}
            parentEntity={parentEntity}
          />
        )}
        {!e.files && mayCreate && addLink && (
          // The entity's own create form, the parent filled in from the query (prefill.ts).
          <Button
            component={Link}
            to={addLink.to}
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
          >
            {addLink.title || ui('newRow', { label: inSentence(e.label) })}
          </Button>
        )}
        {!e.files && mayCreate && !body && !addLink && (
          <AddRowButton entity={entity} parentEntity={parentEntity} parentField={field} parent={parent} />
        )}
      </Group>
      <Stack gap="sm">
        {!list.data && !list.error && <Skeleton height={48} radius="md" />}
        {!list.data && list.error && <LoadFailed error={list.error} onRetry={() => void list.refetch()} />}
        {list.data && rows.length === 0 && (
          <Text c="dimmed" size="sm">
            {ui('emptyList')}
          </Text>
        )}
        {rows.map((r) => (
          <RelatedRow
            key={r.id}
            entity={entity}
            row={r}
            shape={shape}
            detail={detail}
            editForm={editForm}
            parentData={parentData}
          />
        ))}
        {!e.files && mayCreate && body && (
          <QuickAdd
            entity={entity}
            body={body}
            flags={flags
              .map(([n]) => n)
              // The spec decides who may set a flag (a customer's create rule pins
              // `internal = false`), not a role heuristic.
              .filter(
                (n) =>
                  can(model, user, entity, 'create', { ...draftBase, [n]: true }).ok &&
                  offersFlag(model, user, entity, n),
              )}
            base={draftBase}
            onCreate={(values) => create.mutateAsync(values)}
          />
        )}
      </Stack>
    </Card>
  );
}

/** How a related list shows its rows: worked out once per list, the same for every row. */
interface RelatedShape {
  /** The owner field, shown first. */
  owner: string | undefined;
  /** Boolean fields shown as badges when set. */
  flags: readonly string[];
  /** The text field a quick-add box writes, shown whole. */
  body: string | undefined;
  /** The other fields a list of the entity shows. */
  summary: readonly string[];
  /** Rows are files (name, size, a download button). */
  files: boolean;
}

/** "Comments 3" (no count while loading: "0" would be a wrong answer). */
function RelatedTitle({ plural, count }: { plural: string; count: number | null | undefined }) {
  // null: the rows could not be read (the list below says why).
  return (
    <Title order={2} size="h4">
      {plural}{' '}
      {count === null ? null : count !== undefined ? (
        <Badge variant="light" radius="sm" ml={4}>
          {count}
        </Badge>
      ) : (
        <Skeleton
          height={18}
          width={24}
          radius="sm"
          ml={4}
          display="inline-block"
          aria-label={ui('loading')}
        />
      )}
    </Title>
  );
}

/** One row of a related list: its owner, time and flags, its text or link, and its actions. */
function RelatedRow(props: {
  entity: string;
  row: Row;
  shape: RelatedShape;
  detail: RouteEntry | undefined;
  editForm: RouteEntry | undefined;
  parentData: DataContext;
}) {
  const { model, user, backend } = useRuntime();
  const { entity, row: r, detail, editForm, parentData } = props;
  const { owner, flags, body, summary, files } = props.shape;
  const download = () =>
    backend.files.download(entity, r.id).then(
      (f) => {
        const url = URL.createObjectURL(new Blob([f.bytes.slice()], { type: f.type }));
        const a = document.createElement('a');
        a.href = url;
        a.download = f.name;
        a.click();
        URL.revokeObjectURL(url);
      },
      (err: unknown) => notifyError(model, err),
    );
  return (
    <Card key={r.id} padding="sm" radius="md" bg="var(--mantine-color-default-hover)">
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            {owner && r[owner] ? (
              <Text size="sm" fw={600}>
                <FieldValue entity={entity} name={owner} row={r} />
              </Text>
            ) : null}
            <Text size="xs" c="dimmed">
              {timeAgo(r.createdAt)}
            </Text>
            {flags.map((n) =>
              r[n] === true ? (
                <Badge
                  key={n}
                  size="xs"
                  color="yellow"
                  variant="light"
                  style={{ color: lightBadgeText('yellow') }}
                >
                  {fieldLabel(model, entity, n)}
                </Badge>
              ) : null,
            )}
          </Group>
          {files ? (
            <Group gap={6}>
              <IconPaperclip size={14} />
              <Text size="sm">{String(r.name ?? '')}</Text>
              <Text size="xs" c="dimmed">
                {typeof r.size === 'number' ? formatBytes(r.size) : ''}
              </Text>
            </Group>
          ) : body ? (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {String(r[body] ?? '')}
            </Text>
          ) : detail ? (
            <Anchor component={Link} to={buildPath(detail, { id: r.id })}>
              {rowTitle(model, entity, r)}
            </Anchor>
          ) : (
            <Text size="sm">{rowTitle(model, entity, r)}</Text>
          )}
          {!files && !body && summary.length > 0 && (
            <Group gap="md" wrap="wrap">
              {summary.map((n) => (
                <Text key={n} size="sm" span>
                  <Text span size="xs" c="dimmed">
                    {fieldLabel(model, entity, n)}:{' '}
                  </Text>
                  <FieldValue entity={entity} name={n} row={r} />
                </Text>
              ))}
            </Group>
          )}
        </Stack>
        {editForm && !files && can(model, user, entity, 'update', r, parentData).ok && (
          <Tooltip label={ui('edit')}>
            <ActionIcon
              variant="subtle"
              component={Link}
              to={buildPath(editForm, { id: r.id })}
              aria-label={`${ui('edit')}: ${rowTitle(model, entity, r)}`}
            >
              <IconEdit size={16} />
            </ActionIcon>
          </Tooltip>
        )}
        {files && (
          <ActionIcon
            variant="subtle"
            aria-label={ui('download', { name: String(r.name ?? '') })}
            onClick={() => void download()}
          >
            <IconDownload size={16} />
          </ActionIcon>
        )}
      </Group>
    </Card>
  );
}

function QuickAdd(props: {
  entity: string;
  body: string;
  flags: string[];
  base: Record<string, unknown>;
  onCreate(values: Record<string, unknown>): Promise<unknown>;
}) {
  const { model, user } = useRuntime();
  const [text, setText] = useState('');
  const [flags, setFlags] = useState<Record<string, boolean>>({});
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const values = { ...props.base, [props.body]: text, ...flags };
    const bad = formRules(model, props.entity)
      .map((v) => v.rule)
      .find(
        (r) => r.kind === 'row' && refuses(ruleVerdict(model, props.entity, r.rule, { user, row: values })),
      );
    if (bad) return setError(formatMessage(model, bad.error, values));
    setBusy(true);
    try {
      await props.onCreate(values);
      setText('');
      // Flags are for one post: an "internal" note must not make the next reply internal too.
      setFlags({});
      setError(undefined);
    } catch (e) {
      setError(errorMessage(model, e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={(ev) => {
        ev.preventDefault();
        if (text.trim()) void submit();
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={fieldLabel(model, props.entity, props.body)}
          autosize
          minRows={2}
          value={text}
          error={error}
          onChange={(ev) => setText(ev.currentTarget.value)}
        />
        <SnippetPicker
          entity={props.entity}
          field={props.body}
          onPick={(body) => setText((t) => (t.trim() ? `${t.trimEnd()}\n\n${body}` : body))}
        />
        <Group justify="space-between">
          <Group>
            {props.flags.map((f) => (
              <Checkbox
                key={f}
                label={fieldLabel(model, props.entity, f)}
                checked={flags[f] === true}
                onChange={(ev) => {
                  // Read now: React clears currentTarget before a state updater runs.
                  const checked = ev.currentTarget.checked;
                  setFlags((o) => ({ ...o, [f]: checked }));
                }}
              />
            ))}
          </Group>
          <Button type="submit" loading={busy} disabled={!text.trim()}>
            {ui('add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * "Insert saved reply": the texts the user may read from the entity that holds reusable text for
 * this composer (`snippetSource`), appended to what is typed. Nothing when there is none.
 */
function SnippetPicker(props: { entity: string; field: string; onPick(body: string): void }) {
  const { model, user } = useRuntime();
  const source = snippetSource(model, props.entity, props.field);
  const readable = source !== undefined && can(model, user, source.entity, 'read').ok;
  const list = useList(
    source?.entity,
    { sort: [{ field: source?.title ?? 'id', direction: 'asc' }], limit: 200, count: 'none' },
    readable,
    false,
  );
  const rows = list.data?.rows ?? [];
  if (!source || !readable || rows.length === 0) return null;
  const label = model.tables.get(source.entity)?.spec?.label ?? source.entity;
  return (
    <Select
      label={ui('insertSnippet', { label: inSentence(label) })}
      placeholder={ui('insertSnippetPlaceholder')}
      searchable
      clearable={false}
      value={null}
      data={rows.map((r) => ({ value: String(r.id), label: String(r[source.title] ?? r.id) }))}
      onChange={(id) => {
        const row = rows.find((r) => String(r.id) === id);
        if (row) props.onPick(String(row[source.body] ?? ''));
      }}
      maw={360}
    />
  );
}

/** Upload within the limits the spec's validation rules set (size, count), checked before sending. */
function FileUpload(props: {
  entity: string;
  parentField: string;
  parent: Row;
  /** The new file row's own fields (the parent reference and what follows from it). */
  values: Record<string, unknown>;
  existing: Row[];
  parentEntity: string;
}) {
  const { model, user, backend } = useRuntime();
  const qc = useQueryClient();
  const e = model.tables.get(props.entity)?.spec;
  const accept = Object.values(e?.fields ?? {})
    .find((f) => f.accept)
    ?.accept?.join(',');
  const progress = useUploadProgress();
  const upload = async (files: File[]) => {
    const rows: Record<string, unknown>[] = [...props.existing];
    for (const file of files) {
      const draft = {
        ...props.values,
        name: file.name,
        size: file.size,
        type: file.type,
      };
      rows.push(draft);
      const data = {
        rows: (x: string) => (x === props.entity ? rows : []),
        get: (x: string, id: string) =>
          x === props.parentEntity && id === props.parent.id ? props.parent : null,
        profile: () => null,
      };
      const bad = formRules(model, props.entity)
        .map((v) => v.rule)
        .find(
          (r) =>
            r.kind === 'row' && refuses(ruleVerdict(model, props.entity, r.rule, { user, row: draft, data })),
        );
      if (bad) return notifyError(model, { code: bad.error, params: { name: file.name } });
    }
    await progress
      .run(files, async (file) =>
        backend.files.upload(props.entity, {
          values: props.values,
          name: file.name,
          type: file.type || 'application/octet-stream',
          bytes: new Uint8Array(await file.arrayBuffer()),
        }),
      )
      .catch((err: unknown) => notifyError(model, err));
    await Promise.all([
      qc.invalidateQueries({ queryKey: keys.entity(props.entity) }),
      invalidateParentHistories(qc, model, props.entity),
    ]);
  };
  return (
    <Stack gap="xs">
      <FileButton
        onChange={(f) => void upload(f)}
        multiple
        accept={accept}
        disabled={progress.state !== null}
      >
        {(p) => (
          <Button
            {...p}
            variant="light"
            size="xs"
            leftSection={<IconPaperclip size={14} />}
            loading={progress.state !== null}
          >
            {ui('chooseFiles')}
          </Button>
        )}
      </FileButton>
      <UploadProgress state={progress.state} />
    </Stack>
  );
}
