import { type PayloadKeyFill, payloadFills, templateParts } from '../spec/callFills.ts';
import { transitionCalls } from '../spec/transitionCalls.ts';
import type { AppSpec } from '../spec/types.ts';
import { outboxRetentionDays } from '../spec/valueLimits.ts';
import { type CheckedRule, checkedRule } from './checkedRule.ts';

/** A template's parts, its placeholders checked as values over the row. */
export type TemplatePartNode =
  | { kind: 'text'; text: string }
  | { kind: 'value'; text: string; rule: CheckedRule };

/** Where a payload key's value comes from, its rule texts checked. */
export type FillSourceNode =
  | { kind: 'value'; text: string; rule: CheckedRule }
  | { kind: 'template'; text: string; parts: readonly TemplatePartNode[] }
  | { kind: 'rows'; entity: string; ref: string | undefined; items: readonly PayloadFillNode[] };

/** One payload key the database fills when a transition queues a call (src/spec/callFills.ts). */
export interface PayloadFillNode extends Omit<PayloadKeyFill, 'source'> {
  source: FillSourceNode;
}

/** The declared calls as the outbox sends them. */
export interface OutboxNode {
  /** Days a delivered call is kept (the constant `outboxRetentionDays`, else 30). */
  retentionDays: number;
  /** The calls some transition lists, each with its transitions (`ticket.solve`). */
  transitions: ReadonlyMap<string, readonly string[]>;
  /** What the database fills, by entity, then call, for each call a transition of the entity lists. */
  fills: ReadonlyMap<string, ReadonlyMap<string, readonly PayloadFillNode[]>>;
}

function fillNode(spec: AppSpec, entity: string, f: PayloadKeyFill, where: string): PayloadFillNode {
  const at = `${where}.${f.key}`;
  const src = f.source;
  const value = (text: string) => checkedRule(spec, text, entity, at, 'value');
  const source: FillSourceNode =
    src.kind === 'value'
      ? { kind: 'value', text: src.text, rule: value(src.text) }
      : src.kind === 'template'
        ? {
            kind: 'template',
            text: src.text,
            parts: templateParts(src.text).map((p) =>
              p.kind === 'text' ? p : { kind: 'value', text: p.text, rule: value(p.text) },
            ),
          }
        : {
            kind: 'rows',
            entity: src.entity,
            ref: src.ref,
            items: src.items.map((i) => fillNode(spec, src.entity, i, `${at}.fill`)),
          };
  return { ...f, source };
}

/** The outbox's view of the specification: retention, calls bound to transitions, server fills. */
export function outboxOf(spec: AppSpec): OutboxNode {
  const transitions = transitionCalls(spec);
  const fills = new Map<string, Map<string, PayloadFillNode[]>>();
  for (const [entity, st] of Object.entries(spec.states)) {
    const byCall = new Map<string, PayloadFillNode[]>();
    for (const tr of Object.values(st.transitions))
      for (const call of tr.calls ?? [])
        if (!byCall.has(call))
          byCall.set(
            call,
            payloadFills(spec, entity, call).map((f) =>
              fillNode(spec, entity, f, `calls.declared.${call}.fill`),
            ),
          );
    fills.set(entity, byCall);
  }
  return { retentionDays: outboxRetentionDays(spec), transitions, fills };
}

/** The fills of `call` when a transition of `entity` queues it (none when none lists it). */
export function payloadFillsOf(outbox: OutboxNode, entity: string, call: string): readonly PayloadFillNode[] {
  return outbox.fills.get(entity)?.get(call) ?? [];
}
