/** The specification: its types, `defineApp` (typed authoring) and `validateSpec` (checks at load time). */

export { type ValidationResult, validateSpec } from '../check/validateSpec.ts';
export {
  type App,
  type AppInput,
  type ConstantNames,
  defineApp,
  type FieldNames,
  type RowOf,
  type RowsOf,
  type ValueOf,
} from './defineApp.ts';
export * from './types.ts';
