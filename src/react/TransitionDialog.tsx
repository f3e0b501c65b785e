import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { Row } from '../backend/types.ts';
import type { TransitionOption } from '../runtime/availableTransitions.ts';
import { formSchema } from '../runtime/formSchema.ts';
import { transitionDialogCheck } from '../runtime/transitionDialogCheck.ts';
import { ui } from '../runtime/uiText.ts';
import { useRuntime } from './context.ts';
import { errorMessageWithRow, notifyErrorMessage, notifyOk } from './display.tsx';
import { FieldInput, firstFocusField } from './FieldInput.tsx';
import { useTransitionMutation } from './hooks.ts';
import { ownField } from './refusalField.ts';
import { FORM_LEVEL, useSchemaForm } from './useSchemaForm.ts';

/**
 * Runs a transition: directly, or after a dialog asking for its input fields / confirmation.
 * Returns `start(option, row)` and the dialog element to render.
 */
export function useTransitionRunner(entity: string) {
  const { model, backend } = useRuntime();
  const mutation = useTransitionMutation(entity);
  const [pending, setPending] = useState<{ option: TransitionOption; row: Row } | null>(null);
  const run = (option: TransitionOption, row: Row, input?: Record<string, unknown>) =>
    mutation
      .mutateAsync({ id: row.id, transition: option.name, to: option.to, input, version: row.version })
      .then(() => notifyOk(ui('transitionDone', { transition: option.label })));
  const start = (option: TransitionOption, row: Row) => {
    if (!option.allowed) return;
    if (option.input.length > 0 || option.confirm) setPending({ option, row });
    else
      run(option, row).catch(async (e: unknown) =>
        notifyErrorMessage(await errorMessageWithRow(model, backend, e, entity)),
      );
  };
  const dialog = pending ? (
    <TransitionDialog
      entity={entity}
      option={pending.option}
      row={pending.row}
      onClose={() => setPending(null)}
      onSubmit={(input) => run(pending.option, pending.row, input).then(() => setPending(null))}
    />
  ) : null;
  return { start, dialog, busy: mutation.isPending };
}

function TransitionDialog(props: {
  entity: string;
  option: TransitionOption;
  row: Row;
  onClose(): void;
  onSubmit(input: Record<string, unknown>): Promise<void>;
}) {
  const { model, user, backend } = useRuntime();
  const { entity, option, row } = props;
  const schema = useMemo(
    () =>
      formSchema(model, entity, 'create', user?.roles ?? [], {
        fields: option.input,
        allEditable: true,
        allRequired: true,
        optional: option.optional,
      }),
    [model, entity, user, option.input, option.optional],
  );
  // Judged on the row as the transition leaves it (input written, target status), as the server does.
  const judge = (values: Record<string, unknown>) =>
    transitionDialogCheck(model, user, entity, row, option, schema, values);
  const form = useSchemaForm({
    fields: option.input,
    initialValues: () => Object.fromEntries(option.input.map((f) => [f, row[f] ?? null])),
    // A guard or row rule the input does not satisfy yet holds the submit back too.
    check: (values) => {
      const { errors, reason } = judge(values);
      return reason === undefined ? errors : { ...errors, [FORM_LEVEL]: reason };
    },
  });
  const { reason } = judge(form.values);
  const save = async (values: Record<string, unknown>) => {
    try {
      await props.onSubmit(values);
    } catch (e) {
      // A field of this row (not of another row the refusal names, as `line.amount`).
      const field =
        typeof e === 'object' && e && 'field' in e && typeof e.field === 'string'
          ? ownField(entity, e.field)
          : undefined;
      form.refuse(field, await errorMessageWithRow(model, backend, e, entity));
    }
  };
  const refusal = form.form.errors[FORM_LEVEL];
  return (
    <Modal opened onClose={props.onClose} title={<Text fw={600}>{option.label}</Text>} centered>
      {/* The catalogue's messages, not the browser's, say what is missing (noValidate). */}
      <form {...form.submitProps(save)}>
        <Stack>
          {option.input.length === 0 && <Text>{ui('confirmTransition', { transition: option.label })}</Text>}
          {schema.fields.map((f) => (
            <FieldInput
              autoFocus={f.name === firstFocusField(schema.fields)}
              key={f.name}
              entity={entity}
              field={f}
              row={{ ...row, ...form.values }}
              value={form.values[f.name]}
              disabled={form.form.submitting}
              error={form.error(f.name)}
              onChange={(v) => form.change(f.name, v)}
            />
          ))}
          {refusal && (
            <Text c="red" size="sm" role="alert">
              {refusal}
            </Text>
          )}
          {reason && !form.refused && (
            <Text c="red" size="sm" id="transition-reason" data-testid="transition-reason">
              {reason}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {ui('cancel')}
            </Button>
            <Button
              type="submit"
              loading={form.form.submitting}
              // A rule the input does not satisfy yet: enabled once it does; the reason is above.
              disabled={reason !== undefined}
              aria-describedby={reason ? 'transition-reason' : undefined}
              color={model.machines.get(entity)?.states.get(option.to)?.final ? 'red' : undefined}
            >
              {option.label}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
