import { Alert, Button, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { Row } from '../backend/types.ts';
import { formSchema } from '../runtime/formSchema.ts';
import { inSentence } from '../runtime/locale.ts';
import { ui } from '../runtime/uiText.ts';
import { useRuntime } from './context.ts';
import { errorMessage, notifyOk, rowTitle } from './display.tsx';
import { FieldInput, firstFocusField } from './FieldInput.tsx';
import { useRow, useUpdate } from './hooks.ts';

/**
 * A dialog editing one person's profile row as the administrator: the fields the admin's roles
 * may update (the spec's permissions), with the same widgets and validation as every form
 * (`formSchema` with the admin's roles), catalogue messages for refusals (on their field when
 * the catalogue names one), and a reload that keeps what was typed when the row changed meanwhile.
 *
 * @example
 * <AdminProfileDialog entity="person" id={user.id} name={user.email} onClose={() => setOpen(false)} />
 */
export function AdminProfileDialog(props: { entity: string; id: string; name: string; onClose(): void }) {
  const { model } = useRuntime();
  const q = useRow(props.entity, props.id);
  const name = q.data ? rowTitle(model, props.entity, q.data) || props.name : props.name;
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={<Text fw={600}>{ui('editProfileOf', { name })}</Text>}
      centered
      size="lg"
    >
      {q.data ? (
        <ProfileForm
          entity={props.entity}
          row={q.data}
          refetch={() => q.refetch().then((r) => r.data)}
          onDone={props.onClose}
        />
      ) : q.isError ? (
        <Text size="sm">{errorMessage(model, q.error)}</Text>
      ) : (
        <Skeleton height={240} />
      )}
    </Modal>
  );
}

/** The profile form (the dialog's and the "My profile" page's): fields by the signed-in user's rules. */
export function ProfileForm(props: {
  entity: string;
  row: Row;
  refetch(): Promise<Row | undefined>;
  onDone(): void;
  /** Defaults to `onDone`. */
  onCancel?(): void;
  /** Also show the fields the user may not change, read-only (their own profile page). */
  showReadOnly?: boolean;
}) {
  const { model, user } = useRuntime();
  const { entity } = props;
  const [base, setBase] = useState<Row>(props.row);
  const schema = useMemo(
    () => formSchema(model, entity, 'edit', user?.roles ?? [], { row: base, userId: user?.id ?? '' }),
    [model, entity, user, base],
  );
  const fields = schema.fields.filter((f) => f.editable);
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, props.row[f.name] ?? null])),
  );
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<{ field?: string; message: string } | null>(null);
  const [conflict, setConflict] = useState(false);
  const update = useUpdate(entity);
  const errors = schema.validate({ ...base, ...values }, user, base);
  const visible = (name: string) => submitted || touched.has(name);

  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    setServer(null);
    const editable = Object.fromEntries(
      fields.map((f) => [f.name, values[f.name] === '' ? null : (values[f.name] ?? null)]),
    );
    try {
      await update.mutateAsync({ id: base.id, version: base.version, values: editable });
      notifyOk(ui('profileSaved'));
      props.onDone();
    } catch (err) {
      const code = typeof err === 'object' && err && 'code' in err ? String(err.code) : '';
      if (code === 'CONFLICT') return setConflict(true);
      const f =
        typeof err === 'object' && err && 'field' in err && typeof err.field === 'string'
          ? err.field.split('.').pop()
          : undefined;
      const field = f ?? model.errors.get(code)?.field?.split('.')[1];
      const message = errorMessage(model, err);
      if (field && fields.some((x) => x.name === field)) setServer({ field, message });
      else setServer({ message });
    }
  };

  if (fields.length === 0) return <Text size="sm">{ui('nothingToEdit')}</Text>;
  const formError =
    (visible('_form') ? errors._form : undefined) ?? (server?.field ? undefined : server?.message);
  return (
    <form
      noValidate
      onSubmit={(ev) => {
        ev.preventDefault();
        void submit();
      }}
    >
      <Stack gap="md">
        {conflict && (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title={ui('staleTitle')} role="alert">
            <Stack gap="xs">
              <Text size="sm">
                {ui('staleBody', { label: inSentence(model.tables.get(entity)?.spec?.label ?? entity) })}
              </Text>
              <Group>
                <Button
                  size="xs"
                  onClick={async () => {
                    const latest = await props.refetch();
                    if (latest) {
                      setBase(latest);
                      // What the admin typed stays; untouched fields show the other change.
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
          </Alert>
        )}
        {props.showReadOnly &&
          schema.fields
            .filter((f) => !f.editable)
            .map((f) => (
              <FieldInput
                key={f.name}
                entity={entity}
                field={f}
                row={base}
                value={base[f.name] ?? null}
                disabled
                error={undefined}
                onChange={() => undefined}
              />
            ))}
        {fields.map((f) => (
          <FieldInput
            autoFocus={!props.showReadOnly && f.name === firstFocusField(fields)}
            key={f.name}
            entity={entity}
            field={f}
            row={{ ...base, ...values }}
            value={values[f.name]}
            disabled={update.isPending}
            error={
              (visible(f.name) ? errors[f.name] : undefined) ??
              (server?.field === f.name ? server.message : undefined)
            }
            onChange={(v) => {
              setValues((old) => ({ ...old, [f.name]: v }));
              setTouched((t) => new Set(t).add(f.name));
              if (server?.field === f.name) setServer(null);
            }}
          />
        ))}
        {formError && (
          <Text c="red" size="sm" role="alert">
            {formError}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel ?? props.onDone}>
            {ui('cancel')}
          </Button>
          <Button type="submit" loading={update.isPending}>
            {ui('save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
