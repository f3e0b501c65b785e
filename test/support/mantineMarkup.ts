import { MantineProvider } from '@mantine/core';
import { type FunctionComponent, createElement as h, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Router } from 'wouter';
import { theme } from '../../src/react/NinefoldApp.tsx';

/**
 * An element's own markup as the app's theme renders it, inside a router (for links), without the
 * provider's style tags: what the plain drawings of Mantine's components are golden-tested with.
 */
export function mantineMarkup(node: ReactNode): string {
  return renderToStaticMarkup(
    h(
      MantineProvider,
      { theme },
      h(Router as FunctionComponent<{ ssrPath: string }>, { ssrPath: '/' }, node),
    ),
  ).replace(/<style[^>]*>[^<]*<\/style>/g, '');
}
