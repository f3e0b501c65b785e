import { Anchor, rem, Skeleton, Text } from '@mantine/core';
import type { CSSProperties, MouseEvent, ReactNode } from 'react';
import { navigate } from './navigation.ts';

// Mantine's `Text` and `Anchor` as the one element each renders: the same classes, attributes and
// inline styles, without the component's work on every render (props, styles API and style props
// resolved through `Box` from the theme's context). A list's rows draw several a row (the title's
// link, a reference's link, "—" for an empty value); the golden test (PlainText.test.ts) renders
// both and compares the markup. Only what the rows use is here; anything else goes to Mantine.
// Skeleton: the placeholders of the first screen's parts that load after it (the header's
// buttons, a list's filters), nine on the helpdesk's list, each a Mantine component before.

const FOCUS = 'mantine-focus-auto';
const TEXT_CLASS = `${FOCUS} ${Text.classes.root} mantine-Text-root`;
const ANCHOR_CLASS = `${FOCUS} ${Anchor.classes.root} ${Text.classes.root} mantine-Text-root mantine-Anchor-root`;

export interface PlainTextProps {
  /** Mantine's `c="dimmed"`. */
  dimmed?: boolean;
  /** Mantine's `fs="italic"`. */
  italic?: boolean;
  title?: string;
  children?: ReactNode;
}

/**
 * `<Text span c="dimmed">` (and `fs="italic"`) as the `<span>` Mantine renders.
 *
 * @example
 * <PlainText dimmed>—</PlainText>
 */
export function PlainText({ dimmed, italic, title, children }: PlainTextProps) {
  const style = {
    ...(dimmed ? { color: 'var(--mantine-color-dimmed)' } : {}),
    ...(italic ? { fontStyle: 'italic' } : {}),
  };
  return (
    <span style={style} className={TEXT_CLASS} title={title}>
      {children}
    </span>
  );
}

export interface PlainLinkProps {
  to: string;
  /** `text`: `<Text component={Link} fw={500} style={{ color: 'inherit' }}>` (a row's title);
   *  `anchor`: `<Anchor component={Link}>` (a reference). */
  look: 'text' | 'anchor';
  onClick?: (ev: MouseEvent) => void;
  children?: ReactNode;
}

/**
 * An app link drawn as Mantine's `Text` (a row's title) or `Anchor` renders it. A plain `<a>`
 * that navigates as wouter's `Link` does (`followLink`), without `Link`'s subscription to the
 * location: a page of rows held two links a row, each re-rendered on every navigation.
 *
 * @example
 * <PlainLink look="anchor" to="/categories/7">Reports</PlainLink>
 */
export function PlainLink({ to, look, onClick, children }: PlainLinkProps) {
  const click = (ev: MouseEvent) => followLink(ev, () => navigate(to), onClick);
  return look === 'anchor' ? (
    <a data-underline="hover" href={to} className={ANCHOR_CLASS} onClick={click}>
      {children}
    </a>
  ) : (
    <a style={TITLE_STYLE} href={to} className={TEXT_CLASS} onClick={click}>
      {children}
    </a>
  );
}

/** What a click on an app link does, as wouter's `Link`: a plain left click navigates in the app
 * (unless `onClick` prevented it); a click with a modifier key, or another button, is the
 * browser's (a new tab, a download). */
export function followLink(
  ev: Pick<
    MouseEvent,
    'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'button' | 'defaultPrevented' | 'preventDefault'
  >,
  go: () => void,
  onClick?: (ev: never) => void,
): void {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.shiftKey || ev.button !== 0) return;
  onClick?.(ev as never);
  if (ev.defaultPrevented) return;
  ev.preventDefault();
  go();
}

const TITLE_STYLE = { color: 'inherit', fontWeight: 500 } as const;

export interface PlainSkeletonProps {
  /** px, as Mantine's `height` / `width` numbers. */
  height: number;
  width?: number;
  radius?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
  animate?: boolean;
}

/**
 * `<Skeleton height width radius animate>` as the `<div>` Mantine renders.
 *
 * @example
 * <PlainSkeleton height={36} radius="sm" animate={false} />
 */
export function PlainSkeleton({ height, width, radius, animate = true }: PlainSkeletonProps) {
  const style = {
    '--skeleton-height': rem(height),
    ...(width !== undefined ? { '--skeleton-width': rem(width) } : {}),
    ...(radius ? { '--skeleton-radius': `var(--mantine-radius-${radius})` } : {}),
  } as CSSProperties;
  return (
    <div
      style={style}
      className={`${Skeleton.classes.root} mantine-Skeleton-root`}
      data-visible="true"
      data-animate={animate || undefined}
    />
  );
}
