// The codes live in the model (the linter, the document and the error mapping read them too);
// re-exported here under the names the emitters use.
export {
  SQL_BUILTIN_ERROR_CODES as BUILTIN_ERROR_CODES,
  type SqlBuiltinErrorCode as BuiltinErrorCode,
} from '../model/builtinCodes.ts';

/** SQLSTATE of every error the generated SQL raises itself (`raise_exception`). */
export const RAISED_SQLSTATE = 'P0001';
