import type { AppModel } from '../model/appModel.ts';
import type { WidgetNode } from '../model/screen.ts';
import type { DashboardWidgetKind } from '../spec/types.ts';
import { effectiveRoles } from './roles.ts';

/** What a dashboard shows when its specification lists no widgets: every one, for everyone. */
const EVERY_WIDGET: readonly WidgetNode[] = (['byStatus', 'waitingOnMe', 'targets'] as const).map((kind) => ({
  kind,
  roles: [],
}));

/**
 * The widgets of a dashboard a person sees, in order: those for everyone and those for a role they
 * hold (inherited roles and roles held through a relationship on some row included, as the
 * navigation judges a screen). A widget left out is not rendered, so its rows are never asked for.
 *
 * @example
 * dashboardWidgets(model, 'dashboard', ['customer']); // ['byStatus'] when waitingOnMe is for agents
 */
export function dashboardWidgets(
  model: Pick<AppModel, 'roles' | 'screens'>,
  screen: string,
  /** The roles held, relationship roles held somewhere included (`useHeldRoles`). */
  held: readonly string[],
): DashboardWidgetKind[] {
  const roles = effectiveRoles(model, held);
  const widgets = model.screens.get(screen)?.widgets ?? EVERY_WIDGET;
  return widgets
    .filter((w) => w.roles.length === 0 || w.roles.some((r) => roles.includes(r)))
    .map((w) => w.kind);
}
