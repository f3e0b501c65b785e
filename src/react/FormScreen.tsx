import { Alert, Button, Card, Group, Modal, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { Row } from '../backend/types.ts';
import { can } from '../runtime/can.ts';
import { type FormSchema, formSchema } from '../runtime/formSchema.ts';
import { inSentence } from '../runtime/locale.ts';
import { prefillValues } from '../runtime/prefill.ts';
import { buildPath, type RouteEntry } from '../runtime/routeTable.ts';
import { ui } from '../runtime/uiText.ts';
import { useRuntime } from './context.ts';
import { errorMessage, notifyError, notifyOk, rowTitle } from './display.tsx';
import { FieldInput } from './FieldInput.tsx';
import {
  AttachmentsInput,
  type FileChild,
  fileChildren,
  fileProblem,
  uploadAll,
} from './FormAttachments.tsx';
import { invalidateRecomputed, keys, useCreate, useRow, useUpdate } from './hooks.ts';
import { InitialStatePreview } from './InitialStatePreview.tsx';
import { appLocation, type Blocker, useBlocker, useNavigate, useParams } from './navigation.ts';
import { PageCrumbs, useTrail } from './PageCrumbs.tsx';
import { ForbiddenPage, NotFoundPage } from './pages.tsx';
import { errorCode, refusalField } from './refusalField.ts';
import { UploadProgress, useUploadProgress } from './UploadProgress.tsx';
import { notifyWithUndo } from './undoToast.tsx';
import { type SchemaForm, useSchemaForm } from './useSchemaForm.ts';

/** A create or edit form for one entity (which by the route: `:id` means edit). */
export function FormScreen({ route }: { route: RouteEntry }) {
  const params = useParams();
  const id = route.mode === 'edit' ? params[route.rowParam ?? 'id'] : undefined;
  const q = useRow(route.entity, id);
  if (id && q.isLoading) return <Skeleton height={400} radius="md" />;
  if (id && (q.isError || !q.data)) return <NotFoundPage />;
  return <Form route={route} row={q.data} refetch={() => q.refetch().then((r) => r.data)} />;
}

/** The screen's form: what the user's roles may write, checked as the server will, then saved. */
function useRowForm(route: RouteEntry, base: Row | undefined) {
  const { model, user } = useRuntime();
  const entity = route.entity ?? '';
  const mode = base ? 'edit' : 'create';
  const fields = model.screens.get(route.name)?.spec.fields;
  const schema = useMemo(
    () =>
      formSchema(model, entity, mode, user?.roles ?? [], {
        ...(fields ? { fields } : {}),
        ...(base ? { row: base } : {}),
        userId: user?.id ?? '',
      }),
    [model, entity, mode, user, fields, base],
  );
  const form = useSchemaForm({
    fields: schema.fields.map((f) => f.name),
    initialValues: () =>
      base
        ? Object.fromEntries(schema.fields.map((f) => [f.name, base[f.name] ?? null]))
        : // A link may choose some of a new row's fields: /loans/new?book=<id>.
          { ...schema.initialValues(user), ...prefillValues(schema.fields, appLocation().search) },
    check: (values) => schema.validate(base ? { ...base, ...values } : values, user, base),
  });
  return { entity, schema, form };
}

/** The files chosen for a new row's attachment children, with each child's first problem. */
function useChosenFiles(entity: string, create: boolean) {
  const { model, user } = useRuntime();
  const children = useMemo(
    () => (create ? fileChildren(model, user, entity) : []),
    [create, model, user, entity],
  );
  const [files, setFiles] = useState<Map<FileChild, File[]>>(new Map());
  const problems = new Map(
    children.map((c) => [c, fileProblem(model, user, c, files.get(c) ?? [])] as const),
  );
  return { children, files, setFiles, problems };
}

/** Asks before the page is left (a link, back, closing the tab) while `dirty`. */
function useLeaveGuard(dirty: boolean): Blocker {
  const blocker = useBlocker((from, to) => dirty && from !== to);
  useEffect(() => {
    if (!dirty) return;
    const h = (ev: BeforeUnloadEvent) => ev.preventDefault();
    window.addEventListener('beforeunload', h);
    return () => window.removeEventListener('beforeunload', h);
  }, [dirty]);
  return blocker;
}

function Form({
  route,
  row,
  refetch,
}: {
  route: RouteEntry;
  row: Row | undefined;
  refetch(): Promise<Row | undefined>;
}) {
  const { model, user, routes } = useRuntime();
  const [base, setBase] = useState<Row | undefined>(row);
  const { entity, schema, form } = useRowForm(route, base);
  const label = model.tables.get(entity)?.spec.label ?? entity;
  const trail = useTrail(entity, base);
  const progress = useUploadProgress();
  const chosen = useChosenFiles(entity, !base);
  const [conflict, setConflict] = useState(false);
  const detail = routes.find('detail', entity);
  const save = useSave(entity, base, schema, form, {
    files: chosen.files,
    upload: progress.run,
    // Saved: nothing is left unsaved (the blocker lets the move to the detail screen through).
    onSaved: () => chosen.setFiles(new Map()),
    onConflict: () => setConflict(true),
  });
  const blocker = useLeaveGuard(form.form.isDirty() || chosen.files.size > 0);

  if (!base && !can(model, user, entity, 'create').ok) return <ForbiddenPage />;
  if (base && !can(model, user, entity, 'update', base).ok) return <ForbiddenPage />;
  const busy = save.busy || progress.state !== null;
  // Computed fields show what the server will set, as the values change.
  const preview = schema.computedValues(base ? { ...base, ...form.values } : form.values, user);
  const fileTrouble = [...chosen.problems.values()].some(Boolean);

  return (
    <Stack gap="lg" maw={760}>
      <PageCrumbs
        items={[
          ...trail,
          ...(base && detail
            ? [{ label: rowTitle(model, entity, base), to: buildPath(detail, { id: base.id }) }]
            : []),
          { label: route.title },
        ]}
      />
      <Title order={1} size="h2">
        {route.title}
      </Title>
      <Card withBorder radius="md" padding="lg">
        <form {...form.submitProps((values) => (fileTrouble ? undefined : save.run(values)))}>
          <Stack gap="md">
            {schema.fields.map((f) => (
              <FieldInput
                key={f.name}
                entity={entity}
                field={f}
                row={form.values}
                value={f.computed ? (preview[f.name] ?? form.values[f.name]) : form.values[f.name]}
                disabled={!f.editable || busy}
                error={form.error(f.name)}
                onChange={(v) => form.change(f.name, v)}
              />
            ))}
            {chosen.children.map((c) => (
              <AttachmentsInput
                key={c.entity}
                child={c}
                value={chosen.files.get(c) ?? []}
                error={chosen.problems.get(c)}
                disabled={busy}
                onChange={(files) => chosen.setFiles((old) => new Map(old).set(c, files))}
              />
            ))}
            {!base && <InitialStatePreview entity={entity} values={form.values} />}
            <UploadProgress state={progress.state} />
            {form.formError && (
              <Text c="red" size="sm" role="alert">
                {form.formError}
              </Text>
            )}
            <FormButtons saveLabel={base ? ui('save') : ui('create')} busy={busy} />
          </Stack>
        </form>
      </Card>
      <UnsavedChangesModal blocker={blocker} />
      <ConflictModal
        opened={conflict}
        label={label}
        onClose={() => setConflict(false)}
        onReload={async () => {
          const latest = await refetch();
          if (latest) {
            setBase(latest);
            form.reloadLatest(latest);
          }
          setConflict(false);
        }}
      />
    </Stack>
  );
}

/**
 * Saving the form: the row created or updated (with its chosen files), an Undo for an edit, then
 * the row's detail screen. A refusal goes on its field, a conflict to `onConflict`, the rest to a toast.
 */
function useSave(
  entity: string,
  base: Row | undefined,
  schema: FormSchema,
  form: SchemaForm,
  on: {
    files: ReadonlyMap<FileChild, File[]>;
    upload: ReturnType<typeof useUploadProgress>['run'];
    onSaved(): void;
    onConflict(): void;
  },
) {
  const { model, backend, routes } = useRuntime();
  const create = useCreate(entity);
  const update = useUpdate(entity);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const detail = routes.find('detail', entity);
  const undoable = (saved: Row, before: Record<string, unknown>) =>
    notifyWithUndo({
      message: ui('saved'),
      undo: () =>
        backend.data.update(entity, saved.id, saved.version, before).then(
          () => {
            void qc.invalidateQueries({ queryKey: keys.entity(entity) });
            void invalidateRecomputed(qc, model, entity);
            notifyOk(ui('savedUndone'));
          },
          (err: unknown) => notifyError(model, err),
        ),
    });
  const run = async (values: Record<string, unknown>) => {
    const editable = Object.fromEntries(
      schema.fields
        .filter((f) => f.editable)
        .map((f) => [f.name, values[f.name] === '' ? null : (values[f.name] ?? null)]),
    );
    try {
      const saved = base
        ? await update.mutateAsync({ id: base.id, version: base.version, values: editable })
        : await create.mutateAsync(editable);
      if (!base && on.files.size > 0) {
        const failed = await uploadAll(backend, model, entity, saved, on.files, on.upload);
        if (failed) notifyError(model, failed);
      }
      form.form.resetDirty();
      on.onSaved();
      // The fields as they were, to put back if the person presses Undo (a save like any other:
      // the rules and the version check apply).
      if (base) undoable(saved, Object.fromEntries(Object.keys(editable).map((k) => [k, base[k] ?? null])));
      else notifyOk(ui('createdToast', { label: model.tables.get(entity)?.spec.label ?? entity }));
      // let the blocker see the clean state before navigating
      setTimeout(() => navigate(detail ? buildPath(detail, { id: saved.id }) : '/'), 0);
    } catch (err) {
      if (errorCode(err) === 'CONFLICT') return on.onConflict();
      const field = refusalField(model, entity, err);
      if (field && schema.fields.some((x) => x.name === field)) form.refuse(field, errorMessage(model, err));
      else notifyError(model, err);
    }
  };
  return { run, busy: create.isPending || update.isPending };
}

function FormButtons({ saveLabel, busy }: { saveLabel: string; busy: boolean }) {
  const navigate = useNavigate();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={() => navigate(-1)}>
        {ui('cancel')}
      </Button>
      <Button type="submit" loading={busy}>
        {saveLabel}
      </Button>
    </Group>
  );
}

function UnsavedChangesModal({ blocker }: { blocker: Blocker }) {
  return (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset()}
      title={<Text fw={600}>{ui('unsavedTitle')}</Text>}
      centered
    >
      <Stack>
        <Text size="sm">{ui('unsavedBody')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset()}>
            {ui('keepEditing')}
          </Button>
          <Button color="red" onClick={() => blocker.proceed()}>
            {ui('discard')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The row changed since it was loaded: "reload latest" keeps what was typed (`mergeLatest`). */
function ConflictModal(props: {
  opened: boolean;
  label: string;
  onClose(): void;
  onReload(): Promise<void>;
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={<Text fw={600}>{ui('staleTitle')}</Text>}
      centered
    >
      <Stack>
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
          {ui('staleBody', { label: inSentence(props.label) })}
        </Alert>
        <Group justify="flex-end">
          <Button onClick={() => void props.onReload()}>{ui('reloadLatest')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
