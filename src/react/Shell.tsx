import { AppShell, Burger, Group, NavLink, Text, useComputedColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconForms,
  IconLayoutDashboard,
  IconLayoutKanban,
  IconList,
  IconPuzzle,
  IconUsers,
} from '@tabler/icons-react';
import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { ui } from '../runtime/uiText.ts';
import type { ScreenKind } from '../spec/types.ts';
import { afterFirstScreen } from './afterFirstScreen.ts';
import { useRuntime } from './context.ts';
import { lazyComponent } from './lazyComponent.ts';
import { useAppLocation } from './navigation.ts';
import { PROFILE_PATH } from './profilePath.ts';

const ICONS: Record<ScreenKind, typeof IconList> = {
  dashboard: IconLayoutDashboard,
  list: IconList,
  board: IconLayoutKanban,
  admin: IconUsers,
  form: IconForms,
  detail: IconList,
  custom: IconPuzzle,
};

import { PlainSkeleton } from './PlainText.tsx';
// In a file of its own: HeaderActions.tsx links to it, and this file loads HeaderActions.tsx.
import { useHeldRoles } from './useHeldRoles.ts';

export { PROFILE_PATH };

/** The app frame: header (name, colour scheme, demo switcher, account), navigation per role. */
export function Shell({ children }: { children: ReactNode }) {
  const { model, routes, demoAccounts } = useRuntime();
  const [opened, { toggle, close }] = useDisclosure();
  const scheme = useComputedColorScheme('light');
  const [pathname] = useAppLocation();
  const nav = routes.navFor(useHeldRoles());
  // The most specific entry wins, so /tickets/new lights "New ticket", not also "Tickets".
  const current = nav
    .filter((r) =>
      r.path === '/' ? pathname === '/' : pathname === r.path || pathname.startsWith(`${r.path}/`),
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
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
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
              // One line on a phone ("Team Tasks" broke in two beside the header's buttons).
              truncate="end"
              style={{ color: 'inherit', textDecoration: 'none' }}
            >
              {model.purpose.name}
            </Text>
          </Group>
          {/* The menus and their popovers (Mantine's Menu, Tooltip, Modal and floating-ui) load after
              the first screen; buttons of the same size hold their place. */}
          <Suspense fallback={<HeaderPlaceholder count={demoAccounts.length > 0 ? 4 : 3} />}>
            <HeaderActions />
          </Suspense>
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
        <FocusOnPageChange path={pathname} />
        {children}
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

// Its menus load once the first screen is painted (afterFirstScreen.ts).
const HeaderActions = lazyComponent(() =>
  afterFirstScreen()
    .then(() => import('./HeaderActions.tsx'))
    .then((m) => m.HeaderActions),
);

/** Empty squares the size of the header's buttons, hidden from assistive technology. */
function HeaderPlaceholder({ count }: { count: number }) {
  return (
    <Group gap="xs" wrap="nowrap" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders, never reordered
        <PlainSkeleton key={i} width={34} height={34} radius="sm" animate={false} />
      ))}
    </Group>
  );
}
