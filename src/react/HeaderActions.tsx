import {
  ActionIcon,
  Avatar,
  Button,
  Group,
  Menu,
  Modal,
  Stack,
  Text,
  Tooltip,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { IconLogout, IconMoon, IconRestore, IconSun, IconUser, IconUserShare } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { ui } from '../runtime/uiText.ts';
import { demoAccountLabel, useRuntime } from './context.ts';
import { LocaleSwitch } from './LocaleSwitch.tsx';
import { PROFILE_PATH } from './profilePath.ts';

/**
 * The header's actions: demo switch (and reset), language, colour scheme, account menu. Their own
 * chunk (Shell.tsx): Mantine's Menu, Tooltip and Modal with floating-ui are not needed to show
 * the first screen, only to open one of these.
 */
export function HeaderActions() {
  const { model, user, session, backend, demoAccounts } = useRuntime();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  // The embedded demo can start over (its data lives in this browser profile only).
  const resettable =
    demoAccounts.length > 0 && 'resetDemo' in backend && typeof backend.resetDemo === 'function';
  const [resetOpen, setResetOpen] = useState(false);
  const [resetting, setResetting] = useState(false);
  const resetDemo = async () => {
    setResetting(true);
    try {
      await (backend as unknown as { resetDemo(): Promise<void> }).resetDemo();
    } finally {
      // A fresh start: the boot adds the demo accounts again and every screen reads anew.
      window.location.replace('/');
    }
  };
  const email = session?.user.email ?? '';
  const hasProfile = model.profile !== undefined;
  return (
    <Group gap="xs" wrap="nowrap">
      {demoAccounts.length > 0 && (
        <Menu position="bottom-end">
          <Menu.Target>
            <Tooltip label={ui('demoSwitch')}>
              <ActionIcon variant="default" size="lg" aria-label={ui('demoSwitch')}>
                <IconUserShare size={18} />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{ui('demoSwitch')}</Menu.Label>
            {demoAccounts.map((a) => (
              <Menu.Item
                key={a.email}
                disabled={a.email === email}
                onClick={() => void backend.auth.signOut().then(() => backend.auth.signIn(a))}
              >
                {demoAccountLabel(model, a)}
                <Text size="xs" c="dimmed">
                  {a.name ?? a.email}
                </Text>
              </Menu.Item>
            ))}
            {resettable && (
              <>
                <Menu.Divider />
                <Menu.Item leftSection={<IconRestore size={16} />} onClick={() => setResetOpen(true)}>
                  {ui('resetDemo')}
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      )}
      <Modal
        opened={resetOpen}
        onClose={() => setResetOpen(false)}
        title={<Text fw={600}>{ui('resetDemo')}</Text>}
        centered
      >
        <Stack>
          <Text>{ui('resetDemoConfirm')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setResetOpen(false)} disabled={resetting}>
              {ui('cancel')}
            </Button>
            <Button color="red" loading={resetting} onClick={() => void resetDemo()}>
              {ui('resetDemo')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <LocaleSwitch />
      <Tooltip label={ui('toggleColorScheme')}>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={ui('toggleColorScheme')}
          onClick={() => setColorScheme(scheme === 'light' ? 'dark' : 'light')}
        >
          {scheme === 'light' ? <IconMoon size={18} /> : <IconSun size={18} />}
        </ActionIcon>
      </Tooltip>
      <Menu position="bottom-end">
        <Menu.Target>
          <ActionIcon variant="subtle" size="lg" radius="xl" aria-label={ui('signedInAs', { email })}>
            <Avatar size={32} radius="xl" color="blue">
              {email.slice(0, 1).toUpperCase()}
            </Avatar>
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{ui('signedInAs', { email })}</Menu.Label>
          <Menu.Item disabled>
            {ui('roles')}: {(user?.roles ?? []).map((r) => model.roles.get(r)?.label ?? r).join(', ')}
          </Menu.Item>
          {hasProfile && (
            <Menu.Item component={Link} to={PROFILE_PATH} leftSection={<IconUser size={16} />}>
              {ui('myProfile')}
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void backend.auth.signOut()}>
            {ui('signOut')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
