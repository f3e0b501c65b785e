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
  IconUser,
  IconUserShare,
  IconUsers,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
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

/** Where "My profile" lives (a link in the account menu, a route of AppRouter). */
export const PROFILE_PATH = '/profile';

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
  const hasProfile = Object.values(spec.entities).some((e) => e.profile);
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
      <SkipLink />
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
      <AppShell.Main
        id="main"
        tabIndex={-1}
        bg={scheme === 'light' ? 'var(--mantine-color-gray-0)' : undefined}
      >
        <FocusOnPageChange path={location.pathname} />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

/** Focuses the main heading (or the main region) of the screen `main` now shows. */
function focusMain(): boolean {
  const main = document.getElementById('main');
  const target = main?.querySelector<HTMLElement>('h1') ?? null;
  if (!target) return false;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  return true;
}

/**
 * After a page change (not the first page), focus moves to the new page's main heading, so a
 * screen reader announces it and the keyboard starts there, not on the link left behind. The
 * heading may come a moment later (a screen that loads first): tried for up to two seconds.
 */
function FocusOnPageChange({ path }: { path: string }) {
  const last = useRef(path);
  useEffect(() => {
    if (last.current === path) return;
    last.current = path;
    let tries = 0;
    const timer = window.setInterval(() => {
      // A person who already moved on (typing in a field, inside a dialog) keeps their focus.
      const el = document.activeElement;
      const busy =
        el !== null &&
        el !== document.body &&
        (el.closest('[role=dialog]') !== null || el.matches('input, textarea, select, [contenteditable]'));
      if (busy || focusMain() || ++tries > 20) window.clearInterval(timer);
    }, 100);
    return () => window.clearInterval(timer);
  }, [path]);
  return null;
}

/**
 * "Skip to content": the first stop of the keyboard, shown only while it has focus; following it
 * focuses the main region (focusable for that), so the next Tab is inside the page.
 */
function SkipLink() {
  const [shown, setShown] = useState(false);
  return (
    <a
      href="#main"
      onFocus={() => setShown(true)}
      onBlur={() => setShown(false)}
      style={
        shown
          ? {
              position: 'fixed',
              top: 8,
              left: 8,
              zIndex: 1000,
              padding: '8px 12px',
              borderRadius: 'var(--mantine-radius-md)',
              background: 'var(--mantine-color-body)',
              color: 'var(--mantine-color-anchor)',
              border: '2px solid var(--mantine-color-anchor)',
            }
          : {
              position: 'absolute',
              width: 1,
              height: 1,
              overflow: 'hidden',
              clip: 'rect(0 0 0 0)',
              whiteSpace: 'nowrap',
            }
      }
    >
      {ui('skipToContent')}
    </a>
  );
}
