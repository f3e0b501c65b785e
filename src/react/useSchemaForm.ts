import { type UseFormReturnType, useForm } from '@mantine/form';
import { type FormEvent, useState } from 'react';

type Values = Record<string, unknown>;

/** The key under which a message without a field (a row rule's, a refusal's) is kept. */
export const FORM_LEVEL = '_form';

/**
 * The values after a "reload latest" on a conflict: what the person typed (touched fields) stays;
 * the fields they left alone show the other change. One rule for every form that saves a row.
 *
 * @example
 * mergeLatest({ title: 'Mine', body: 'old' }, { title: 'Theirs', body: 'new' }, (k) => k === 'title');
 * // { title: 'Mine', body: 'new' }
 */
export function mergeLatest(
  values: Readonly<Values>,
  latest: Readonly<Values>,
  touched: (field: string) => boolean,
): Values {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, touched(k) ? v : (latest[k] ?? null)]),
  );
}

export interface SchemaForm {
  /** The @mantine/form instance: values, touched and dirty state, refusals in `errors`. */
  form: UseFormReturnType<Values>;
  values: Values;
  /** A field's message: the check's once the field was touched (or a submit tried), else a refusal's. */
  error(field: string): string | undefined;
  /** The message without a field: the check's after a submit, else a refusal without a field. */
  formError: string | undefined;
  /** A refusal by the server, on `field` when the form shows it, else on the form. */
  refuse(field: string | undefined, message: string): void;
  /** Whether a refusal is shown (on a field or the form). */
  refused: boolean;
  change(field: string, value: unknown): void;
  /** `<form>` props: marks every field touched, checks, and calls `save` only when nothing is wrong. */
  submitProps(save: (values: Values) => Promise<void> | void): {
    noValidate: true;
    onSubmit(ev: FormEvent<HTMLFormElement>): void;
  };
  /** "Reload latest" after a conflict: untouched fields take the stored row's values (`mergeLatest`). */
  reloadLatest(latest: Readonly<Values>): void;
}

/**
 * A form's state through @mantine/form, checked by the same rules as the server (`check`: a
 * `formSchema(...).validate`, or the transition dialog's check). The check runs on every render
 * over the values as typed, so a row rule's message follows every field it reads; a message shows
 * once its field was touched or a submit was tried. Refusals from the server live in the form's
 * `errors` and clear when their field changes (docs/decisions.md, "Forms through @mantine/form").
 */
export function useSchemaForm(spec: {
  /** The fields the form shows (a refusal on another field is the form's). */
  fields: readonly string[];
  initialValues(): Values;
  check(values: Values): Record<string, string>;
}): SchemaForm {
  const { fields, initialValues, check } = spec;
  const [initial] = useState(initialValues);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initial,
    // The same check, run by `onSubmit` before `save`.
    validate: (values) => check(values),
  });
  // Touched: changed by the person (what "reload latest" keeps). Tried: a submit was attempted,
  // after which every message shows.
  const [tried, setTried] = useState(false);
  const live = check(form.values);
  const shown = (field: string) => (tried || form.isTouched(field) ? live[field] : undefined);
  const refusal = (field: string) => {
    const e = form.errors[field];
    return typeof e === 'string' ? e : undefined;
  };
  return {
    form,
    values: form.values,
    error: (field) => shown(field) ?? refusal(field),
    formError: shown(FORM_LEVEL) ?? refusal(FORM_LEVEL),
    refused: Object.keys(form.errors).length > 0,
    refuse: (field, message) =>
      form.setFieldError(field && fields.includes(field) ? field : FORM_LEVEL, message),
    change: (field, value) => form.setFieldValue(field, value),
    submitProps: (save) => ({
      noValidate: true,
      onSubmit: (ev) => {
        setTried(true);
        // A failed check leaves no refusal behind: its messages are the live ones above.
        form.onSubmit(save, () => form.clearErrors())(ev);
      },
    }),
    reloadLatest: (latest) => form.setValues(mergeLatest(form.getValues(), latest, (k) => form.isTouched(k))),
  };
}
