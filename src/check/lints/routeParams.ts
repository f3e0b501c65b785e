import type { Diagnostic } from '../../diagnostics.ts';
import { didYouMean } from '../../spec/didYouMean.ts';
import { own } from '../../spec/specRefs.ts';
import { at } from '../../spec/specShape.ts';
import type { AppSpec } from '../../spec/types.ts';

const IMPLICIT = ['id', 'createdAt', 'updatedAt', 'version'];

/**
 * Route `:params` that match no key of the screen's entity (`id` or a field). On detail and form
 * screens the row param (`id`, else the last param) may have any name (`/things/:thingId`): links
 * fill it with the row's id. Custom screens and dashboards are free to use their own params.
 *
 * @example
 * routeParams(spec); // [{ code: 'lint/route-param', path: 'screens.ticket.route', message: 'route param ":ticketId" ...' }]
 */
export function routeParams(spec: AppSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [sn, screen] of Object.entries(spec.screens)) {
    if (screen.kind === 'custom' || screen.kind === 'dashboard') continue;
    const params = [...screen.route.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
    const path = at(at('screens', sn), 'route');
    // A detail screen shows one row: with no param naming it, its links could never reach one.
    if (params.length === 0 && screen.kind === 'detail')
      out.push({
        code: 'lint/route-param',
        severity: 'error',
        path,
        message: `route ${screen.route} of a detail screen names no row`,
        hint: `add a param for the row, e.g. "${screen.route.replace(/\/$/, '')}/:id"`,
      });
    if (params.length === 0) continue;
    const entity = screen.entity === undefined ? undefined : own(spec.entities, screen.entity);
    if (!entity) {
      out.push({
        code: 'lint/route-param',
        severity: 'error',
        path,
        message: `route ${screen.route} has params but the screen has no entity to match them`,
        hint: "set the screen's entity, or make it a custom screen",
      });
      continue;
    }
    const keys = [...IMPLICIT, ...Object.keys(entity.fields)];
    const rowParam =
      screen.kind === 'detail' || screen.kind === 'form'
        ? params.includes('id')
          ? 'id'
          : params[params.length - 1]
        : undefined;
    for (const p of params) {
      if (p === 'id' || p === rowParam || Object.hasOwn(entity.fields, p)) continue;
      out.push({
        code: 'lint/route-param',
        severity: 'error',
        path,
        message: `route param ":${p}" is neither "id" nor a field of ${screen.entity}`,
        hint: didYouMean(p, keys) ?? 'use ":id" for the row, or a field name to filter by',
      });
    }
  }
  return out;
}
