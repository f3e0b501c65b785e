/** The rule table's key of a rule of an entity (src/runtime/ruleTable.ts). */
export function ruleKey(entity: string, rule: string): string {
  return `${entity}\u0000${rule}`;
}
