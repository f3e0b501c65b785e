import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { Row } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import { formSchema } from '../runtime/formSchema.ts';
import { inSentence } from '../runtime/locale.ts';
import { ui } from '../runtime/uiText.ts';
import { useRuntime } from './context.ts';
import { errorMessage, notifyOk } from './display.tsx';
import { FieldInput, firstFocusField } from './FieldInput.tsx';
import { useCreate } from './hooks.ts';
import { refusalField } from './refusalField.ts';
import { useSchemaForm } from './useSchemaForm.ts';

/**
 * Values of a child row that follow from its parent: the reference to the parent itself, and any
 * other required reference the parent holds too (a receipt added on an expense line belongs to
 * that line's claim). Returns undefined when a required reference cannot be worked out.
 *
 * @example
 * inheritedValues(resolve(spec), 'receipt', 'line', line) // { line: line.id, claim: line.claim }
 */
export function inheritedValues(
  model: AppModel,
  entity: string,
  parentField: string,
  parent: Row,
  parentEntity: string,
): Record<string, unknown> | undefined {
  const fields = model.tables.get(entity)?.spec.fields ?? {};
  const parentFields = model.tables.get(parentEntity)?.spec.fields ?? {};
  const out: Record<string, unknown> = { [parentField]: parent.id };
  for (const [name, f] of Object.entries(fields)) {
    if (name === parentField || f.type !== 'ref' || !f.ref) continue;
    const via = Object.entries(parentFields).find(([, p]) => p.type === 'ref' && p.ref === f.ref)?.[0];
    const value = via ? parent[via] : undefined;
    if (value !== undefined && value !== null) out[name] = value;
    else if (f.required) return undefined;
  }
  return out;
}

/** "Add expense line": a dialog with the child entity's form, the parent filled in. */
export function AddRowButton(props: {
  entity: string;
  parentEntity: string;
  parentField: string;
  parent: Row;
}) {
  const { model } = useRuntime();
  const [open, setOpen] = useState(false);
  const label = model.tables.get(props.entity)?.spec?.label ?? props.entity;
  return (
    <>
      <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setOpen(true)}>
        {ui('newRow', { label: inSentence(label) })}
      </Button>
      {open && <AddRowDialog {...props} label={label} onClose={() => setOpen(false)} />}
    </>
  );
}

function AddRowDialog(props: {
  entity: string;
  parentEntity: string;
  parentField: string;
  parent: Row;
  label: string;
  onClose(): void;
}) {
  const { model, user } = useRuntime();
  const { entity } = props;
  const inherited = useMemo(
    () => inheritedValues(model, entity, props.parentField, props.parent, props.parentEntity) ?? {},
    [model, entity, props.parentField, props.parent, props.parentEntity],
  );
  const schema = useMemo(() => {
    const all = formSchema(model, entity, 'create', user?.roles ?? [], { userId: user?.id ?? '' });
    const fields = all.fields.map((f) => f.name).filter((n) => !(n in inherited));
    return formSchema(model, entity, 'create', user?.roles ?? [], { fields, userId: user?.id ?? '' });
  }, [model, entity, user, inherited]);
  const form = useSchemaForm({
    fields: schema.fields.map((f) => f.name),
    initialValues: () => schema.initialValues(user),
    check: (values) => schema.validate({ ...inherited, ...values }, user),
  });
  const create = useCreate(entity);
  const save = async (values: Record<string, unknown>) => {
    try {
      const clean = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === '' ? null : v]));
      await create.mutateAsync({ ...clean, ...inherited });
      notifyOk(ui('createdToast', { label: props.label }));
      props.onClose();
    } catch (err) {
      form.refuse(refusalField(model, entity, err), errorMessage(model, err));
    }
  };
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={<Text fw={600}>{ui('newRow', { label: inSentence(props.label) })}</Text>}
      centered
      size="lg"
    >
      <form {...form.submitProps(save)}>
        <Stack>
          {schema.fields.map((f) => (
            <FieldInput
              autoFocus={f.name === firstFocusField(schema.fields)}
              key={f.name}
              entity={entity}
              field={f}
              row={{ ...inherited, ...form.values }}
              value={form.values[f.name]}
              disabled={create.isPending}
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
            <Button variant="default" onClick={props.onClose}>
              {ui('cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {ui('add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
