import { Badge, type BadgeProps, DEFAULT_THEME, rem } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

/** The theme's named colours: the ones whose light-variant variables Mantine's CSS defines. */
const NAMED = new Set(Object.keys(DEFAULT_THEME.colors));

export interface PlainBadgeProps {
  variant: 'light' | 'dot';
  color: string;
  /** Inline styles of the badge and of its label (Mantine's `styles.root`, `styles.label`). */
  rootStyle?: CSSProperties;
  labelStyle?: CSSProperties;
  /** The dot's colour (`--badge-dot-color`), for the dot variant. */
  dotColor?: string;
  children: ReactNode;
}

/**
 * Mantine's `Badge` (radius `sm`, variant `light` or `dot`, a theme colour) as the two plain
 * elements it renders: the same classes, attributes, inline styles and variables, without the
 * component's work on every render (its props, styles API and variables resolved from the theme
 * through `Box`). A list draws two of them a row; a page's first screen of rows spent a fifth of
 * its render in them. A colour the theme does not name goes to Mantine's own. The golden test
 * (PlainBadge.test.ts) renders both and compares the markup for every theme colour.
 *
 * @example
 * <PlainBadge variant="light" color="orange">Open</PlainBadge>
 */
export function PlainBadge({ variant, color, rootStyle, labelStyle, dotColor, children }: PlainBadgeProps) {
  if (!NAMED.has(color))
    return <MantineBadge {...{ variant, color, rootStyle, labelStyle, dotColor, children }} />;
  const vars: Record<string, string> = {
    '--badge-radius': 'var(--mantine-radius-sm)',
    ...(variant === 'light'
      ? {
          '--badge-bg': `var(--mantine-color-${color}-light)`,
          '--badge-color': `var(--mantine-color-${color}-light-color)`,
          '--badge-bd': `${rem(1)} solid transparent`,
        }
      : dotColor
        ? { '--badge-dot-color': dotColor }
        : {}),
  };
  const classes = Badge.classes as Record<string, string>;
  const root = variant === 'dot' ? `${classes['root--dot']} ${classes.root}` : classes.root;
  return (
    <div style={{ ...rootStyle, ...vars }} className={`${root} mantine-Badge-root`} data-variant={variant}>
      <span className={`${classes.label} mantine-Badge-label`} style={labelStyle}>
        {children}
      </span>
    </div>
  );
}

/** The same badge drawn by Mantine (a colour outside the theme, and the golden test's reference). */
export function MantineBadge({ variant, color, rootStyle, labelStyle, dotColor, children }: PlainBadgeProps) {
  const props: BadgeProps = {
    variant,
    color,
    radius: 'sm',
    styles: { root: rootStyle ?? {}, label: labelStyle ?? {} },
    ...(dotColor ? { vars: () => ({ root: { '--badge-dot-color': dotColor } }) } : {}),
  };
  return <Badge {...props}>{children}</Badge>;
}
