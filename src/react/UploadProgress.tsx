import { Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ui } from '../runtime/uiText.ts';

/** How far an upload of several files is: the file being sent and the share of bytes already sent. */
export interface UploadState {
  name: string;
  /** 0–100, by bytes of the files already stored (a file counts once the backend has it). */
  percent: number;
  done: number;
  count: number;
}

/**
 * Runs `send` for each file in turn, keeping an `UploadState` for `<UploadProgress>`: a person
 * attaching a large file sees which file is going and how much is left, not a button that does
 * nothing. The backends take a file in one call, so the share moves file by file (by bytes).
 *
 * @example
 * const up = useUploadProgress();
 * await up.run(files, (f) => backend.files.upload('attachment', ...));
 * <UploadProgress state={up.state} />
 */
export function useUploadProgress() {
  const [state, setState] = useState<UploadState | null>(null);
  const run = async <T,>(files: readonly File[], send: (file: File) => Promise<T>): Promise<void> => {
    const total = files.reduce((n, f) => n + f.size, 0) || 1;
    let sent = 0;
    try {
      for (const [i, file] of files.entries()) {
        setState({
          name: file.name,
          percent: Math.round((sent / total) * 100),
          done: i,
          count: files.length,
        });
        await send(file);
        sent += file.size;
      }
    } finally {
      setState(null);
    }
  };
  return { state, run };
}

/** The progress of an upload under way (nothing when none is). */
export function UploadProgress({ state }: { state: UploadState | null }) {
  if (!state) return null;
  const label = ui('uploading', { name: state.name, percent: state.percent });
  return (
    <Stack gap={4} role="status" aria-live="polite">
      <Text size="sm">
        {label}
        {state.count > 1 ? ` ${ui('uploadingFiles', { done: state.done, count: state.count })}` : ''}
      </Text>
      <Progress value={Math.max(state.percent, 4)} animated striped aria-label={label} size="sm" />
    </Stack>
  );
}
