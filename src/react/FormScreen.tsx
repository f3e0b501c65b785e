import { Alert, Button, Card, Group, Modal, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { Row } from '../backend/types.ts';
import { can } from '../runtime/can.ts';
import { formSchema } from '../runtime/formSchema.ts';
import { inSentence } from '../runtime/locale.ts';
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
import { keys, useCreate, useRow, useUpdate } from './hooks.ts';
import { useBlocker, useNavigate, useParams } from './navigation.ts';
import { PageCrumbs, useTrail } from './PageCrumbs.tsx';
import { ForbiddenPage, NotFoundPage } from './pages.tsx';
import { UploadProgress, useUploadProgress } from './UploadProgress.tsx';
import { notifyWithUndo } from './undoToast.tsx';

/** A create or edit form for one entity (which by the route: `:id` means edit). */
export function FormScreen({ route }: { route: RouteEntry }) {
  const params = useParams();
  const id = route.mode === 'edit' ? params[route.rowParam ?? 'id'] : undefined;
  const q = useRow(route.entity, id);
  if (id && q.isLoading) return <Skeleton height={400} radius="md" />;
  if (id && (q.isError || !q.data)) return <NotFoundPage />;
  return <Form route={route} row={q.data} refetch={() => q.refetch().then((r) => r.data)} />;
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
  const entity = route.entity ?? '';
  const e = model.tables.get(entity)?.spec;
  const mode = row ? 'edit' : 'create';
  const screen = model.screens.get(route.name)?.spec;
  const [base, setBase] = useState<Row | undefined>(row);
  const trail = useTrail(entity, base);
  const progress = useUploadProgress();
  const schema = useMemo(
    () =>
      formSchema(model, entity, mode, user?.roles ?? [], {
        ...(screen?.fields ? { fields: screen.fields } : {}),
        ...(base ? { row: base } : {}),
        userId: user?.id ?? '',
      }),
    [model, entity, mode, user, screen?.fields, base],
  );
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    row
      ? Object.fromEntries(schema.fields.map((f) => [f.name, row[f.name] ?? null]))
      : schema.initialValues(user),
  );
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<{ field?: string; message: string } | null>(null);
  const [conflict, setConflict] = useState(false);
  const [dirty, setDirty] = useState(false);
  const create = useCreate(entity);
  const { backend } = useRuntime();
  const qc = useQueryClient();
  const children = useMemo(
    () => (mode === 'create' ? fileChildren(model, user, entity) : []),
    [mode, model, user, entity],
  );
  const [files, setFiles] = useState<Map<FileChild, File[]>>(new Map());
  const fileErrors = new Map(
    children.map((c) => [c, fileProblem(model, user, c, files.get(c) ?? [])] as const),
  );
  const update = useUpdate(entity);
  const navigate = useNavigate();
  const detail = routes.find('detail', entity);
  const errors = schema.validate(base ? { ...base, ...values } : values, user, base);
  const blocker = useBlocker((from, to) => dirty && from !== to);
  useEffect(() => {
    if (!dirty) return;
    const h = (ev: BeforeUnloadEvent) => ev.preventDefault();
    window.addEventListener('beforeunload', h);
    return () => window.removeEventListener('beforeunload', h);
  }, [dirty]);

  if (mode === 'create' && !can(model, user, entity, 'create').ok) return <ForbiddenPage />;
  if (mode === 'edit' && base && !can(model, user, entity, 'update', base).ok) return <ForbiddenPage />;

  const visible = (name: string) => submitted || touched.has(name);
  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(errors).length > 0 || [...fileErrors.values()].some(Boolean)) return;
    setServer(null);
    const editable = Object.fromEntries(
      schema.fields
        .filter((f) => f.editable)
        .map((f) => [f.name, values[f.name] === '' ? null : (values[f.name] ?? null)]),
    );
    try {
      const saved = base
        ? await update.mutateAsync({ id: base.id, version: base.version, values: editable })
        : await create.mutateAsync(editable);
      if (!base && files.size > 0) {
        const failed = await uploadAll(backend, model, entity, saved, files, progress.run);
        if (failed) notifyError(model, failed);
      }
      setDirty(false);
      if (base) {
        // The fields as they were, to put back if the person presses Undo (a save like any other:
        // the rules and the version check apply).
        const before = Object.fromEntries(Object.keys(editable).map((k) => [k, base[k] ?? null]));
        notifyWithUndo({
          message: ui('saved'),
          undo: () =>
            backend.data.update(entity, saved.id, saved.version, before).then(
              () => {
                void qc.invalidateQueries({ queryKey: keys.entity(entity) });
                notifyOk(ui('savedUndone'));
              },
              (err: unknown) => notifyError(model, err),
            ),
        });
      } else notifyOk(ui('createdToast', { label: e?.label ?? entity }));
      // let the blocker see the clean state before navigating
      setTimeout(() => navigate(detail ? buildPath(detail, { id: saved.id }) : '/'), 0);
    } catch (err) {
      const code = typeof err === 'object' && err && 'code' in err ? String(err.code) : '';
      if (code === 'CONFLICT') return setConflict(true);
      // A field of this entity only (`line.amount` is not the claim's `amount`).
      const fieldOf = (path: string | undefined) => {
        const [owner, name] = path?.includes('.') ? path.split('.') : [entity, path];
        return owner === entity ? name : undefined;
      };
      const f =
        typeof err === 'object' && err && 'field' in err && typeof err.field === 'string'
          ? fieldOf(err.field)
          : undefined;
      const catalogueField = fieldOf(model.errors.get(code)?.field);
      const field = f ?? catalogueField;
      const message = errorMessage(model, err);
      if (field && schema.fields.some((x) => x.name === field)) setServer({ field, message });
      else notifyError(model, err);
    }
  };
  const busy = create.isPending || update.isPending || progress.state !== null;
  const formError = visible('_form') ? errors._form : undefined;

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
        <form
          noValidate
          onSubmit={(ev) => {
            ev.preventDefault();
            void submit();
          }}
        >
          <Stack gap="md">
            {schema.fields.map((f) => (
              <FieldInput
                key={f.name}
                entity={entity}
                field={f}
                row={values}
                value={values[f.name]}
                disabled={!f.editable || busy}
                error={
                  (visible(f.name) ? errors[f.name] : undefined) ??
                  (server?.field === f.name ? server.message : undefined)
                }
                onChange={(v) => {
                  setValues((old) => ({ ...old, [f.name]: v }));
                  setTouched((t) => new Set(t).add(f.name));
                  setDirty(true);
                  if (server?.field === f.name) setServer(null);
                }}
              />
            ))}
            {children.map((c) => (
              <AttachmentsInput
                key={c.entity}
                child={c}
                value={files.get(c) ?? []}
                error={fileErrors.get(c)}
                disabled={busy}
                onChange={(chosen) => {
                  setFiles((old) => new Map(old).set(c, chosen));
                  setDirty(true);
                }}
              />
            ))}
            <UploadProgress state={progress.state} />
            {formError && (
              <Text c="red" size="sm" role="alert">
                {formError}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => navigate(-1)}>
                {ui('cancel')}
              </Button>
              <Button type="submit" loading={busy}>
                {base ? ui('save') : ui('create')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
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
      <Modal
        opened={conflict}
        onClose={() => setConflict(false)}
        title={<Text fw={600}>{ui('staleTitle')}</Text>}
        centered
      >
        <Stack>
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
            {ui('staleBody', { label: inSentence(e?.label ?? entity) })}
          </Alert>
          <Group justify="flex-end">
            <Button
              onClick={async () => {
                const latest = await refetch();
                if (latest) {
                  setBase(latest);
                  // What the user typed stays; the fields they left alone show the other change.
                  setValues((old) =>
                    Object.fromEntries(
                      Object.entries(old).map(([k, v]) => [k, touched.has(k) ? v : (latest[k] ?? null)]),
                    ),
                  );
                }
                setConflict(false);
              }}
            >
              {ui('reloadLatest')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
