import {
  ActionIcon,
  AppShell,
  Avatar,
  Burger,
  Button,
  Group,
  Menu,
  Modal,
  NavLink,
  Stack,
  Text,
  Tooltip,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconForms,
  IconLayoutDashboard,
  IconLayoutKanban,
  IconList,
  IconLogout,
  IconMoon,
  IconPuzzle,
  IconRestore,
  IconSun,
  IconUserShare,
  IconUsers,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { ui } from '../runtime/uiText.ts';
import type { ScreenKind } from '../spec/types.ts';
import { useRuntime } from './context.ts';
import { LocaleSwitch } from './LocaleSwitch.tsx';

const ICONS: Record<ScreenKind, typeof IconList> = {
  dashboard: IconLayoutDashboard,
  list: IconList,
  board: IconLayoutKanban,
  admin: IconUsers,
  form: IconForms,
  detail: IconList,
  custom: IconPuzzle,
};

/** The app frame: header (name, colour scheme, demo switcher, account), navigation per role. */
export function Shell() {
  const { spec, routes, user, session, backend, demoAccounts } = useRuntime();
  const [opened, { toggle, close }] = useDisclosure();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const location = useLocation();
  const nav = routes.navFor(user?.roles ?? []);
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
  // The most specific entry wins, so /tickets/new lights "New ticket", not also "Tickets".
  const current = nav
    .filter((r) =>
      r.path === '/'
        ? location.pathname === '/'
        : location.pathname === r.path || location.pathname.startsWith(`${r.path}/`),
    )
    .sort((a, b) => b.path.length - a.path.length)[0];
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={ui('toggleNavigation')}
            />
            <Text
              component={Link}
              to="/"
              fw={700}
              size="lg"
              style={{ color: 'inherit', textDecoration: 'none' }}
            >
              {spec.purpose.name}
            </Text>
          </Group>
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
                      {spec.roles.roles[a.role]?.label ?? a.role}
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
                  {ui('roles')}: {(user?.roles ?? []).map((r) => spec.roles.roles[r]?.label ?? r).join(', ')}
                </Menu.Item>
                <Menu.Divider />
                <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void backend.auth.signOut()}>
                  {ui('signOut')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={ui('navigation')}>
        {nav.map((r) => {
          const Icon = ICONS[r.kind];
          const active = r === current;
          return (
            <NavLink
              key={r.name}
              component={Link}
              to={r.path}
              label={r.title}
              active={active}
              aria-current={active ? 'page' : undefined}
              variant="filled"
              leftSection={<Icon size={18} stroke={1.6} />}
              onClick={close}
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            />
          );
        })}
      </AppShell.Navbar>
      <AppShell.Main bg={scheme === 'light' ? 'var(--mantine-color-gray-0)' : undefined}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
