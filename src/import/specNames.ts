import { humanize } from '../doc/labels.ts';
import type { AppSpec } from '../spec/types.ts';
import type { Named } from './importContext.ts';

/**
 * The names a document may use for the parts of the specification read so far: keys, the
 * labels `ninefold doc` prints (with the same humanized fallbacks), and plurals for entities.
 */

export function entityNames(spec: AppSpec): Named[] {
  return Object.entries(spec.entities).map(([key, e]) => ({
    key,
    label: e.label,
    also: [e.plural, `${e.label}s`],
  }));
}

const IMPLICIT = ['id', 'createdAt', 'updatedAt', 'version'];

/** Fields of an entity, with the four columns every table has (rules and sorts may name them). */
export function fieldNames(spec: AppSpec, entity: string | undefined, implicit = true): Named[] {
  const fields = entity ? (spec.entities[entity]?.fields ?? {}) : {};
  const own = Object.entries(fields).map(([key, f]) => ({ key, label: f.label ?? humanize(key) }));
  const extra = implicit
    ? IMPLICIT.filter((k) => !Object.hasOwn(fields, k)).map((key) => ({ key, label: humanize(key) }))
    : [];
  return [...own, ...extra];
}

export function roleNames(spec: AppSpec): Named[] {
  return Object.entries(spec.roles.roles).map(([key, r]) => ({ key, label: r.label }));
}

export function stateNames(spec: AppSpec, entity: string): Named[] {
  return Object.entries(spec.states[entity]?.states ?? {}).map(([key, s]) => ({
    key,
    label: s.label ?? humanize(key),
  }));
}
