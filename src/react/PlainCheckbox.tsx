import { Checkbox, useMantineTheme } from '@mantine/core';
import type { CSSProperties } from 'react';

export interface PlainCheckboxProps {
  'aria-label': string;
  checked: boolean;
  onChange(): void;
}

/** The checkbox's own root class: `Checkbox.classes.root` is the inline input's it shares. */
const CHECKBOX_ROOT = 'm_bf2d988c';
const CHECK_PATH =
  'M4 4.586L1.707 2.293A1 1 0 1 0 .293 3.707l3 3a.997.997 0 0 0 1.414 0l5-5A1 1 0 1 0 8.293.293L4 4.586z';

/**
 * Mantine's `Checkbox` (no label, the theme's primary colour, radius `sm`) as the elements it
 * renders: the same classes, attributes, variables and check mark, without its five components'
 * work on every render. A list whose rows can be chosen draws one a row. The golden test
 * (PlainCheckbox.test.ts) renders both and compares the markup; the one difference is the input's
 * generated `id`, which nothing refers to without a label.
 *
 * @example
 * <PlainCheckbox aria-label="Select row" checked={false} onChange={toggle} />
 */
export function PlainCheckbox({ 'aria-label': label, checked, onChange }: PlainCheckboxProps) {
  const { primaryColor } = useMantineTheme();
  const c = Checkbox.classes as Record<string, string>;
  return (
    <div
      style={
        {
          '--checkbox-radius': 'var(--mantine-radius-sm)',
          '--checkbox-color': `var(--mantine-color-${primaryColor}-filled)`,
        } as CSSProperties
      }
      className={`${CHECKBOX_ROOT} mantine-Checkbox-root ${c.root} mantine-Checkbox-root`}
      data-variant="filled"
      data-label-position="right"
      data-checked={checked || undefined}
    >
      <div className={`${c.body} mantine-Checkbox-body`}>
        <div className={`${c.inner} mantine-Checkbox-inner`} data-label-position="right">
          <input
            className={`mantine-focus-auto ${c.input} mantine-Checkbox-input`}
            data-with-error-styles="true"
            aria-label={label}
            type="checkbox"
            checked={checked}
            onChange={onChange}
          />
          <svg
            viewBox="0 0 10 7"
            fill="none"
            xmlns="http://www.w3.org/2000/svg"
            aria-hidden="true"
            className={`${c.icon} mantine-Checkbox-icon`}
          >
            <path d={CHECK_PATH} fill="currentColor" fillRule="evenodd" clipRule="evenodd" />
          </svg>
        </div>
        <div className={`${c.labelWrapper} mantine-Checkbox-labelWrapper`} />
      </div>
    </div>
  );
}
