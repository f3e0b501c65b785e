/**
 * The resolved app model: `resolve(spec) → AppModel`, the layer between the specification and
 * every output (docs/architecture.md).
 */
export type { AppModel } from './appModel.ts';
export type { ColumnNode, ColumnOrigin } from './column.ts';
export { FILE_FIELD_ALIASES, FILE_META_COLUMNS, IMPLICIT_COLUMNS, sqlTypeOf } from './column.ts';
export type { ConstantNode } from './constant.ts';
export type { ConstraintNode } from './constraint.ts';
export type { EnumValueNode } from './enumValue.ts';
export type { ErrorCodeNode, ErrorSqlMapping } from './errorCode.ts';
export {
  FIELD_FORMAT_NAMES,
  FIELD_FORMATS,
  type FieldFormat,
  type FieldFormatNode,
  formatRegExp,
} from './formats.ts';
export { humanize } from './humanize.ts';
export { columnOf, tableByName, tableOf } from './lookup.ts';
export { isModel, modelOf, type SpecOrModel } from './modelOf.ts';
export { ACTIONS, type Action, type PolicyNode } from './policy.ts';
export type { ReferenceNode } from './reference.ts';
export { resolve } from './resolve.ts';
export type { RoleNode } from './role.ts';
export { routeParams, type ScreenNode } from './screen.ts';
export type { InitialRuleNode, StateMachineNode, StateNode } from './stateMachine.ts';
export type { TableNode } from './table.ts';
export type { TableIndexNode } from './tableIndex.ts';
export { tableShapes, tableShapeText } from './tableShape.ts';
export { HIDDEN_COLUMN } from './tableSqlNames.ts';
export type { TransitionNode } from './transition.ts';
