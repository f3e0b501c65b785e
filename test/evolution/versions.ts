/**
 * Successive versions of a reference specification, each a small, realistic change on top of the
 * last: the evolution suite migrates a database through them and compares it with a fresh one.
 */
import type { AppSpec, EntitySpec } from '../../src/spec/types.ts';

type Spec = AppSpec;

function clone(spec: AppSpec): Spec {
  return structuredClone(spec) as Spec;
}

/** Renames a field everywhere it is referenced (rules, screens, permissions, messages). */
function renameField(spec: Spec, entity: string, from: string, to: string): Spec {
  const text = JSON.stringify(spec).replace(new RegExp(`\\b${from}\\b`, 'g'), to);
  const out = JSON.parse(text) as Spec;
  const f = out.entities[entity]?.fields[to];
  if (!f) throw new Error(`renameField: ${entity}.${to} missing after rename`);
  f.renamedFrom = from;
  return out;
}

/** What the generic steps need to know about an app. */
export interface EvolutionPlan {
  /** The entity with states that gains and loses a state. */
  entity: string;
  /** A state the new state is reached from (and returns to). */
  from: string;
  /** A role allowed to run the new transitions. */
  role: string;
  /** A field of `entity` renamed in step 2 (distinctive name: it is replaced as a word everywhere). */
  rename: [string, string];
  /** A text field of `entity` with a minimum-length rule bound to a constant, tightened in step 5. */
  tighten: { constant: string; value: number; field: string };
  /** A second constant changed in step 6 (a loosened limit: no row breaks it). */
  constant: [string, number];
}

export interface Version {
  name: string;
  spec: AppSpec;
  /** Whether the step deletes data (runs with --allow-destructive). */
  destructive?: boolean;
}

/**
 * Seven versions (six changes): 1 the app; 2 new fields (optional, required with a default) and a
 * renamed field; 3 a new state with transitions; 4 that state removed, its rows mapped back; 5 a
 * tightened rule (a changed constant) that some rows break; 6 a new entity referencing the app's
 * entity, the optional field of step 2 removed, another constant changed; 7 the new entity renamed.
 */
export function versions(base: AppSpec, p: EvolutionPlan): Version[] {
  const v1 = clone(base);

  let v2 = clone(v1);
  const e2 = v2.entities[p.entity] as EntitySpec;
  e2.fields.evolutionNote = { type: 'text', label: 'Note' };
  e2.fields.evolutionChannel = {
    type: 'enum',
    label: 'Channel',
    required: true,
    default: 'web',
    values: ['web', 'email', 'phone'],
  };
  v2 = renameField(v2, p.entity, p.rename[0], p.rename[1]);

  const v3 = clone(v2);
  const st3 = v3.states[p.entity];
  if (!st3) throw new Error(`${p.entity} has no states`);
  st3.states.escalated = { label: 'Escalated', description: 'Handed to a specialist.' };
  st3.transitions.escalate = { label: 'Escalate', from: [p.from], to: 'escalated', roles: [p.role] };
  st3.transitions.deescalate = { label: 'De-escalate', from: ['escalated'], to: p.from, roles: [p.role] };

  const v4 = clone(v3);
  const st4 = v4.states[p.entity];
  if (!st4) throw new Error('unreachable');
  delete st4.states.escalated;
  delete st4.transitions.escalate;
  delete st4.transitions.deescalate;
  st4.removedStates = { escalated: p.from };

  const v5 = clone(v4);
  const c5 = v5.constants[p.tighten.constant];
  if (!c5) throw new Error(`no constant ${p.tighten.constant}`);
  c5.value = p.tighten.value;

  const v6 = clone(v5);
  delete v6.entities[p.entity]?.fields.evolutionNote;
  v6.entities.evolutionLink = {
    label: 'Link',
    fields: {
      parent: { type: 'ref', ref: p.entity, required: true, onDelete: 'cascade', label: 'Parent' },
      url: { type: 'text', required: true, label: 'URL' },
    },
  };
  for (const [role, perms] of Object.entries(v6.roles.permissions))
    if (role === p.role) perms.evolutionLink = { read: true, create: true, delete: true };
  const c6 = v6.constants[p.constant[0]];
  if (!c6) throw new Error(`no constant ${p.constant[0]}`);
  c6.value = p.constant[1];

  const v7 = clone(v6);
  const link = v7.entities.evolutionLink as EntitySpec;
  delete v7.entities.evolutionLink;
  v7.entities.evolutionReference = { ...link, renamedFrom: 'evolutionLink' };
  for (const perms of Object.values(v7.roles.permissions))
    if (perms.evolutionLink) {
      perms.evolutionReference = perms.evolutionLink;
      delete perms.evolutionLink;
    }

  return [
    { name: '1 the app', spec: v1 },
    { name: '2 fields added and renamed', spec: v2 },
    { name: '3 new state with transitions', spec: v3 },
    { name: '4 state removed, rows mapped', spec: v4 },
    { name: '5 tightened rule (changed constant)', spec: v5 },
    { name: '6 new entity with a reference, field removed, constant changed', spec: v6, destructive: true },
    { name: '7 entity renamed', spec: v7 },
  ];
}
