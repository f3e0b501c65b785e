/// <reference types="vite/client" />
declare module 'virtual:ninefold-spec' {
  import type { AppSpec } from '../src/spec/types.ts';

  const spec: AppSpec;
  export default spec;
  /** Settles once the app's demo (its own chunk) is registered with `spec`; at once without one. */
  export const demoLoaded: Promise<void>;
  /** Puts the texts of `locale` into `spec.translations` (a build's own chunk per language). */
  export function translationsLoaded(locale: string): Promise<void>;
}
declare module 'virtual:ninefold-rules' {
  import type { RuleTable } from '../src/runtime/ruleTable.ts';

  /** The spec's rules, checked at build time (served to builds only; see builtRuleChecker.ts). */
  const rules: RuleTable;
  export default rules;
}
declare module 'virtual:ninefold-model-rules' {
  import type { ModelRuleTable } from '../src/model/modelRuleTable.ts';

  /** The model's rule checks, made at build time (builds only; see builtModelRuleCheck.ts). */
  const table: ModelRuleTable;
  export default table;
}
