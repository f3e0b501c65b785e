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
import { errorCode, refusalField } from './refusalField.ts';
import { useSchemaForm } from './useSchemaForm.ts';

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
  const form = useSchemaForm({
    fields: fields.map((f) => f.name),
    initialValues: () => Object.fromEntries(fields.map((f) => [f.name, props.row[f.name] ?? null])),
    check: (values) => schema.validate({ ...base, ...values }, user, base),
  });
  const [conflict, setConflict] = useState(false);
  const update = useUpdate(entity);
  const save = async (values: Record<string, unknown>) => {
    const editable = Object.fromEntries(
      fields.map((f) => [f.name, values[f.name] === '' ? null : (values[f.name] ?? null)]),
    );
    try {
      await update.mutateAsync({ id: base.id, version: base.version, values: editable });
      notifyOk(ui('profileSaved'));
      props.onDone();
    } catch (err) {
      if (errorCode(err) === 'CONFLICT') return setConflict(true);
      form.refuse(refusalField(model, entity, err), errorMessage(model, err));
    }
  };

  if (fields.length === 0) return <Text size="sm">{ui('nothingToEdit')}</Text>;
  return (
    <form {...form.submitProps(save)}>
      <Stack gap="md">
        {conflict && (
          <ConflictAlert
            label={model.tables.get(entity)?.spec.label ?? entity}
            onReload={async () => {
              const latest = await props.refetch();
              if (latest) {
                setBase(latest);
                form.reloadLatest(latest);
              }
              setConflict(false);
            }}
          />
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
            row={{ ...base, ...form.values }}
            value={form.values[f.name]}
            disabled={update.isPending}
            error={form.error(f.name)}
            onChange={(v) => form.change(f.name, v)}
          />
        ))}
        {form.formError && (
          <Text c="red" size="sm" role="alert">
            {form.formError}
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

/** The row changed since it was loaded: "reload latest" keeps what was typed (`mergeLatest`). */
function ConflictAlert(props: { label: string; onReload(): Promise<void> }) {
  return (
    <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title={ui('staleTitle')} role="alert">
      <Stack gap="xs">
        <Text size="sm">{ui('staleBody', { label: inSentence(props.label) })}</Text>
        <Group>
          <Button size="xs" onClick={() => void props.onReload()}>
            {ui('reloadLatest')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
