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
      }),
    [model, entity, user, option.input],
  );
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    Object.fromEntries(option.input.map((f) => [f, row[f] ?? null])),
  );
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [serverError, setServerError] = useState<{ field?: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // Judged on the row as the transition leaves it (input written, target status), as the server does.
  const { errors: inputErrors, reason } = transitionDialogCheck(
    model,
    user,
    entity,
    row,
    option,
    schema,
    values,
  );
  const submit = async () => {
    setTouched(new Set(option.input));
    if (Object.keys(inputErrors).length > 0 || reason) return;
    setBusy(true);
    setServerError(null);
    try {
      await props.onSubmit(values);
    } catch (e) {
      // A field of this row (not of another row the refusal names, as `line.amount`).
      const raw = typeof e === 'object' && e && 'field' in e && typeof e.field === 'string' ? e.field : '';
      const [owner, name] = raw.split('.');
      const field = owner === entity ? name : undefined;
      setServerError({
        ...(field ? { field } : {}),
        message: await errorMessageWithRow(model, backend, e, entity),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={props.onClose} title={<Text fw={600}>{option.label}</Text>} centered>
      <form
        // The catalogue's messages, not the browser's, say what is missing.
        noValidate
        onSubmit={(ev) => {
          ev.preventDefault();
          void submit();
        }}
      >
        <Stack>
          {option.input.length === 0 && <Text>{ui('confirmTransition', { transition: option.label })}</Text>}
          {schema.fields.map((f) => (
            <FieldInput
              autoFocus={f.name === firstFocusField(schema.fields)}
              key={f.name}
              entity={entity}
              field={f}
              row={{ ...row, ...values }}
              value={values[f.name]}
              disabled={busy}
              error={
                (touched.has(f.name) ? inputErrors[f.name] : undefined) ??
                (serverError?.field === f.name ? serverError.message : undefined)
              }
              onChange={(v) => {
                setValues((old) => ({ ...old, [f.name]: v }));
                setTouched((t) => new Set(t).add(f.name));
              }}
            />
          ))}
          {serverError && !schema.fields.some((f) => f.name === serverError.field) && (
            <Text c="red" size="sm" role="alert">
              {serverError.message}
            </Text>
          )}
          {reason && !serverError && (
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
              loading={busy}
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
