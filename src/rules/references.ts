import type { Typed } from './ast.ts';
import { typedChildren } from './typedChildren.ts';

export interface RuleReferences {
  /** `entity.field`, including both ends of a one-hop path and `me.f` (as `profileEntity.f`). */
  fields: string[];
  constants: string[];
  roles: string[];
  /** Entities read beyond the rule's row: counted/summed entities and entities reached by one hop. */
  entities: string[];
}

/**
 * Everything a checked rule reads, sorted and without duplicates (for lints such as unused
 * constants, and for the SQL compiler's indexes).
 *
 * @example
 * ruleReferences(checkRule(spec, 'count(review where proposal = this) >= minReviews', { entity: 'proposal' }).typed)
 * // { fields: ['review.proposal'], constants: ['minReviews'], roles: [], entities: ['review'] }
 */
export function ruleReferences(typed: Typed): RuleReferences {
  const fields = new Set<string>();
  const constants = new Set<string>();
  const roles = new Set<string>();
  const entities = new Set<string>();
  const walk = (n: Typed): void => {
    switch (n.kind) {
      case 'field': {
        const [a, b] = n.path;
        fields.add(`${n.entity}.${a}`);
        if (b !== undefined && n.via) {
          fields.add(`${n.via}.${b}`);
          entities.add(n.via);
        }
        return;
      }
      case 'const':
        constants.add(n.name);
        return;
      case 'me':
        if (n.field !== undefined && n.profile) fields.add(`${n.profile}.${n.field}`);
        return;
      case 'this':
        if (n.field !== undefined) fields.add(`${n.entity}.${n.field}`);
        return;
      case 'count':
      case 'sum':
        entities.add(n.entity);
        if (n.kind === 'sum') fields.add(`${n.entity}.${n.field}`);
        break;
      case 'role':
        roles.add(n.role);
        break;
      default:
        break;
    }
    typedChildren(n).forEach(walk);
  };
  walk(typed);
  const sorted = (s: Set<string>) => [...s].sort();
  return {
    fields: sorted(fields),
    constants: sorted(constants),
    roles: sorted(roles),
    entities: sorted(entities),
  };
}
