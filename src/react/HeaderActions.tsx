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
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { ui } from '../runtime/uiText.ts';
import { demoAccountLabel, useRuntime } from './context.ts';
import { LocaleSwitch } from './LocaleSwitch.tsx';
import { PlainSkeleton } from './PlainText.tsx';
import { PROFILE_PATH } from './profilePath.ts';
import { useMountedInTurn } from './useMountedInTurn.ts';

/**
 * The header's actions: demo switch (and reset), language, colour scheme, account menu. Their own
 * chunk (Shell.tsx): Mantine's Menu, Tooltip and Modal with floating-ui are not needed to show
 * the first screen, only to open one of these. They mount one per task (useMountedInTurn.ts):
 * three menus, two tooltips and a dialog mounted together were one task of React's work of 54–76
 * ms after the live screen (docs/performance.md, "Tasks over 50 ms").
 */
export function HeaderActions() {
  const { demoAccounts, backend } = useRuntime();
  // The embedded demo can start over (its data lives in this browser profile only).
  const resettable =
    demoAccounts.length > 0 && 'resetDemo' in backend && typeof backend.resetDemo === 'function';
  const [resetOpen, setResetOpen] = useState(false);
  const parts: ReactNode[] = [
    ...(demoAccounts.length > 0
      ? [<DemoMenu key="demo" onReset={resettable ? () => setResetOpen(true) : undefined} />]
      : []),
    <LocaleSwitch key="locale" />,
    <ColorSchemeToggle key="scheme" />,
    <AccountMenu key="account" />,
  ];
  const mounted = useMountedInTurn(parts.length + (resettable ? 1 : 0));
  return (
    <Group gap="xs" wrap="nowrap">
      {parts.map((part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts never reorder
        i < mounted ? part : <PlainSkeleton key={i} width={34} height={34} radius="sm" animate={false} />,
      )}
      {resettable && mounted > parts.length && (
        <ResetDialog opened={resetOpen} onClose={() => setResetOpen(false)} />
      )}
    </Group>
  );
}

/** The demo accounts to switch to, and the demo's reset when it has one. */
function DemoMenu({ onReset }: { onReset: (() => void) | undefined }) {
  const { model, session, backend, demoAccounts } = useRuntime();
  const email = session?.user.email ?? '';
  return (
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
        {onReset && (
          <>
            <Menu.Divider />
            <Menu.Item leftSection={<IconRestore size={16} />} onClick={onReset}>
              {ui('resetDemo')}
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Asks before the demo starts over, then resets it and reloads. */
function ResetDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { backend } = useRuntime();
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
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={600}>{ui('resetDemo')}</Text>} centered>
      <Stack>
        <Text>{ui('resetDemoConfirm')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={resetting}>
            {ui('cancel')}
          </Button>
          <Button color="red" loading={resetting} onClick={() => void resetDemo()}>
            {ui('resetDemo')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Light or dark. */
function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  return (
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
  );
}

/** Who is signed in, with which roles; their profile; signing out. */
function AccountMenu() {
  const { model, user, session, backend } = useRuntime();
  const email = session?.user.email ?? '';
  return (
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
        {model.profile !== undefined && (
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
  );
}
