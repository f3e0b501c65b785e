import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { currentLocale, LOCALE_NAMES, LOCALE_STORAGE_KEY, LOCALES, type Locale } from '../runtime/locale.ts';
import { ui } from '../runtime/uiText.ts';

/**
 * The language menu: each shipped locale under its own name. The choice is kept in localStorage
 * and the page reloads, so every text, date and amount (and the theme's labels, built once) is
 * in the new language; the data stays (it lives in the browser profile, not in the page).
 */
export function LocaleSwitch() {
  const locale = currentLocale();
  const choose = (next: Locale) => {
    if (next === locale) return;
    try {
      localStorage.setItem(LOCALE_STORAGE_KEY, next);
    } catch {
      return; // Storage blocked: the choice could not survive the reload.
    }
    location.reload();
  };
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Tooltip label={ui('language')}>
          <ActionIcon variant="default" size="lg" aria-label={`${ui('language')}: ${LOCALE_NAMES[locale]}`}>
            <IconLanguage size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{ui('language')}</Menu.Label>
        {LOCALES.map((l) => (
          <Menu.Item
            key={l}
            lang={l}
            onClick={() => choose(l)}
            rightSection={l === locale ? <IconCheck size={14} aria-hidden /> : null}
            aria-current={l === locale ? 'true' : undefined}
          >
            {LOCALE_NAMES[l]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
