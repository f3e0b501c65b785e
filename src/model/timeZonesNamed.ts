import { type Typed, ZONED_FUNCTIONS } from '../rules/ast.ts';
import { typedChildren } from '../rules/typedChildren.ts';
import type { AppModel } from './appModel.ts';

/**
 * Every IANA time zone the app's rules can make Postgres read: UTC (the server's own clock and
 * every date's midnight), the app's `timezone` constant, a zone written in a rule
 * (`hour(t, "Asia/Tokyo")`), and every value of an enum a rule takes its zone from
 * (`startOfDay(d, organisation.timeZone)`). The checker admits no other zone argument (a zone is
 * a literal or an enum of zone names), so nothing outside this set reaches the database.
 *
 * @example
 * timeZonesNamed(resolve(tasksSpec)).has('Asia/Tokyo'); // true: a value of organisation.timeZone
 */
export function timeZonesNamed(model: AppModel): Set<string> {
  const zones = new Set<string>(['UTC']);
  for (const c of model.constants.values())
    if (c.type === 'timezone' && typeof c.value === 'string') zones.add(c.value);
  for (const rule of model.rules) if (rule.typed) addZones(rule.typed, zones);
  return zones;
}

function addZones(n: Typed, zones: Set<string>): void {
  if (n.kind === 'call' && ZONED_FUNCTIONS.has(n.fn)) {
    if (n.zone !== undefined) zones.add(n.zone);
    const z = n.args[1];
    if (z?.kind === 'literal' && typeof z.value === 'string') zones.add(z.value);
    if (z?.type.kind === 'enum') for (const v of z.type.values) zones.add(v);
  }
  for (const c of typedChildren(n)) addZones(c, zones);
}
