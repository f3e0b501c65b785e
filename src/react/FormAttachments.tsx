import { FileInput } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import type { Backend, Row } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import { can } from '../runtime/can.ts';
import { formatMessage } from '../runtime/formatMessage.ts';
import { formRules } from '../runtime/formRules.ts';
import { type RuleUser, refuses, ruleVerdict } from '../runtime/ruleVerdict.ts';
import { inheritedValues } from './AddRowDialog.tsx';

/** A file entity that belongs to rows of `entity` (`attachment.ticket`), offered on its create form. */
export interface FileChild {
  entity: string;
  field: string;
  label: string;
}

/**
 * The file entities listed on `entity`'s detail screen that the user may add to a new row, so the
 * create form can take them at once ("file a ticket with a screenshot").
 *
 * @example
 * fileChildren(resolve(helpdesk), customer, 'ticket') // [{ entity: 'attachment', field: 'ticket', label: 'Attachments' }]
 */
export function fileChildren(model: AppModel, user: RuleUser | null, entity: string): FileChild[] {
  const detail = [...model.screens.values()].find((s) => s.kind === 'detail' && s.entity === entity);
  return (detail?.spec.related ?? []).flatMap((pair) => {
    const [child = '', field = ''] = pair.split('.');
    const e = model.tables.get(child)?.spec;
    if (!e?.files || !can(model, user, child, 'create').ok) return [];
    // Only children that need nothing but the new row (a receipt also needs its line).
    const probe = { id: 'new', createdAt: '', updatedAt: '', version: 0 } as Row;
    if (!inheritedValues(model, child, field, probe, entity)) return [];
    return [{ entity: child, field, label: e.plural ?? e.label }];
  });
}

/** The catalogue message of the first size/type/count rule the chosen files break, if any. */
export function fileProblem(
  model: AppModel,
  user: RuleUser | null,
  child: FileChild,
  files: readonly File[],
): string | undefined {
  const drafts: Record<string, unknown>[] = [];
  for (const file of files) {
    const draft = { [child.field]: 'new', name: file.name, size: file.size, type: file.type };
    drafts.push(draft);
    const data = {
      rows: (x: string) => (x === child.entity ? drafts : []),
      get: () => null,
      profile: () => null,
    };
    for (const { rule: r } of formRules(model, child.entity)) {
      if (r.kind !== 'row') continue;
      // Rules about the parent row (its status) wait for the server; this one is being made.
      if (/\b\w+\.\w+/.test(r.rule.replace(/this\.\w+/g, ''))) continue;
      if (refuses(ruleVerdict(model, child.entity, r.rule, { user, row: draft, data })))
        return formatMessage(model, r.error, { name: file.name });
    }
  }
  return undefined;
}

/** Uploads the chosen files to the new row; returns the first failure (the row itself is saved). */
export async function uploadAll(
  backend: Backend,
  model: AppModel,
  parentEntity: string,
  parent: Row,
  chosen: ReadonlyMap<FileChild, readonly File[]>,
  /** Sends the files one by one (`useUploadProgress().run`, which shows how far it is). */
  run: (files: readonly File[], send: (file: File) => Promise<unknown>) => Promise<void> = async (
    files,
    send,
  ) => {
    for (const f of files) await send(f);
  },
): Promise<unknown> {
  for (const [child, files] of chosen) {
    const values = inheritedValues(model, child.entity, child.field, parent, parentEntity) ?? {};
    try {
      await run(files, async (file) =>
        backend.files.upload(child.entity, {
          values,
          name: file.name,
          type: file.type || 'application/octet-stream',
          bytes: new Uint8Array(await file.arrayBuffer()),
        }),
      );
    } catch (e) {
      return e;
    }
  }
  return undefined;
}

export function AttachmentsInput(props: {
  child: FileChild;
  value: File[];
  error: string | undefined;
  disabled: boolean;
  onChange(files: File[]): void;
}) {
  return (
    <FileInput
      label={props.child.label}
      multiple
      clearable
      leftSection={<IconPaperclip size={16} />}
      value={props.value}
      error={props.error}
      disabled={props.disabled}
      onChange={(files) => props.onChange(files)}
    />
  );
}
