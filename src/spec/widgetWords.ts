import type { DashboardWidgetKind } from './types.ts';

/**
 * A dashboard widget's words in the nine-point document, written by src/doc/renderScreens.ts and
 * read back by src/import/readScreens.ts (`Widget: waiting on me, for Agent`).
 */
export const WIDGET_WORDS: Record<DashboardWidgetKind, string> = {
  byStatus: 'counts by status',
  waitingOnMe: 'waiting on me',
  targets: 'targets',
};
