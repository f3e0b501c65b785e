import type { ConstantValue, TemporalConstantType } from '../spec/types.ts';

/** A business constant with its value, referenced by name from rules, messages and limits. */
export interface ConstantNode {
  name: string;
  value: ConstantValue;
  label: string;
  unit?: string;
  /** A point or length of time (`date`, `datetime`, `duration`...), when the value is one. */
  type?: TemporalConstantType;
}
