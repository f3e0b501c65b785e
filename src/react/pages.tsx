import { Button, Center, Group, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconLock, IconMapQuestion } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link, useRouteError } from 'react-router';
import { ui } from '../runtime/uiText.ts';

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

/** A screen that threw while rendering: a calm page inside the shell, the error in the console. */
export function CrashPage() {
  const error = useRouteError();
  console.error('ninefold: screen crashed', error);
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

/** A small confirm dialog (focus is trapped and restored by Mantine's Modal). */
export function useConfirm() {
  const [req, setReq] = useState<ConfirmRequest | null>(null);
  const confirmDialog = (
    <Modal
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
    </Modal>
  );
  return { confirm: setReq, confirmDialog };
}
