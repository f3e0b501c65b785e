import type { AppModel } from '../model/appModel.ts';

/** `entity.field` or `field` → the field when it is one of `entity`'s (`line.amount` is not the claim's). */
export function ownField(entity: string, path: string | undefined): string | undefined {
  if (!path) return undefined;
  const [owner, name] = path.includes('.') ? path.split('.') : [entity, path];
  return owner === entity ? name : undefined;
}

/**
 * The field of `entity` a server refusal is about: the one the error names, else its catalogue
 * code's field (`errors.X.field`), else none (the message is the form's).
 *
 * @example
 * refusalField(model, 'ticket', { code: 'TITLE_TOO_SHORT' }) // 'title'
 */
export function refusalField(model: AppModel, entity: string, err: unknown): string | undefined {
  const e = typeof err === 'object' && err ? (err as { code?: unknown; field?: unknown }) : {};
  const named = typeof e.field === 'string' ? ownField(entity, e.field) : undefined;
  return named ?? ownField(entity, model.errors.get(String(e.code ?? ''))?.field);
}

/** The catalogue code of an error, or '' when it has none. */
export function errorCode(err: unknown): string {
  return typeof err === 'object' && err && 'code' in err ? String(err.code) : '';
}
