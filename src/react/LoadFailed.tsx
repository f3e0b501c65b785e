import { Alert, Badge, Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ui } from '../runtime/uiText.ts';
import { useRuntime } from './context.ts';
import { errorMessage } from './display.tsx';
import { LazyTooltip } from './LazyTooltip.tsx';

/**
 * A read that failed (a lost connection, a refusal, an entity the backend does not know), said
 * with the catalogue's message and a way to ask again. Without it a list showed "no rows yet" and
 * a count kept its skeleton for good: both wrong answers.
 */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { model } = useRuntime();
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={ui('loadFailed')}>
      {errorMessage(model, error)}{' '}
      <Button variant="subtle" size="compact-sm" onClick={onRetry}>
        {ui('tryAgain')}
      </Button>
    </Alert>
  );
}

/**
 * `LoadFailed` where only a number would go (a count's badge): a mark whose name is the message.
 * Its hint is a LazyTooltip: Mantine's Tooltip imported here put floating-ui (~15 KB gzip) on the
 * list's first-screen path, whose count can fail.
 */
export function CountFailed({ error }: { error: unknown }) {
  const { model } = useRuntime();
  const message = errorMessage(model, error);
  return (
    <LazyTooltip label={message}>
      <Badge color="red" variant="light" radius="sm" aria-label={message}>
        !
      </Badge>
    </LazyTooltip>
  );
}
