import { Button, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconLock, IconMapQuestion } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { ui } from '../runtime/uiText.ts';
import { LazyModal } from './LazyModal.tsx';

function Message({ icon, title, body }: { icon: ReactNode; title: string; body: string }) {
  return (
    <Center mih="50vh">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray">
          {icon}
        </ThemeIcon>
        <Title order={1} size="h3">
          {title}
        </Title>
        <Text c="dimmed">{body}</Text>
        <Button component={Link} to="/" variant="light">
          {ui('backHome')}
        </Button>
      </Stack>
    </Center>
  );
}

/** Not found — also for rows the user may not read, so existence is never revealed. */
export function NotFoundPage({ message }: { message?: string }) {
  return (
    <Message
      icon={<IconMapQuestion size={30} />}
      title={ui('notFoundTitle')}
      body={message ?? ui('notFoundBody')}
    />
  );
}

/** A screen that threw while rendering: a calm page inside the shell (ScreenErrorBoundary logs it). */
export function CrashPage() {
  return <Message icon={<IconAlertTriangle size={30} />} title={ui('crashTitle')} body={ui('crashBody')} />;
}

export function ForbiddenPage() {
  return <Message icon={<IconLock size={30} />} title={ui('forbiddenTitle')} body={ui('forbiddenBody')} />;
}

interface ConfirmRequest {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm(): unknown;
}

/** A small confirm dialog (focus is trapped and restored by Mantine's Modal, loaded on first use). */
export function useConfirm() {
  const [req, setReq] = useState<ConfirmRequest | null>(null);
  const confirmDialog = (
    <LazyModal
      opened={req !== null}
      onClose={() => setReq(null)}
      title={<Text fw={600}>{req?.title}</Text>}
      centered
    >
      <Stack>
        <Text size="sm">{req?.body}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setReq(null)}>
            {ui('cancel')}
          </Button>
          <Button
            color="red"
            onClick={() => {
              req?.onConfirm();
              setReq(null);
            }}
          >
            {req?.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </LazyModal>
  );
  return { confirm: setReq, confirmDialog };
}
