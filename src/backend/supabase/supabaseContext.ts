import type { SupabaseClient } from '@supabase/supabase-js';
import type { AppModel } from '../../model/appModel.ts';
import type { ErrorContext } from '../errors/mapDatabaseError.ts';
import type { EntityModel } from './entityModel.ts';
import { type AuthState, mapPostgrestError } from './mapSupabaseError.ts';

/** What every port of the hosted adapter shares. */
export interface SupabaseContext {
  model: AppModel;
  client: SupabaseClient;
  models: ReadonlyMap<string, EntityModel>;
  errors: ErrorContext;
  auth: AuthState;
}

/** The result of awaiting a supabase-js PostgREST builder. */
export interface PostgrestResult<T> {
  data: T | null;
  error: {
    code?: string | null;
    message?: string | null;
    details?: string | null;
    hint?: string | null;
  } | null;
  status: number;
  count?: number | null;
}

/**
 * Awaits a PostgREST request and returns its result, or rejects with the catalogue error.
 *
 * @example
 * const { data } = await run(ctx, ctx.client.from('ticket').select('*'));
 */
export async function run<T>(
  ctx: SupabaseContext,
  request: PromiseLike<PostgrestResult<T>>,
): Promise<PostgrestResult<T> & { error: null }> {
  const result = await request;
  if (result.error) throw mapPostgrestError(result.error, result.status, ctx.errors, ctx.auth);
  return result as PostgrestResult<T> & { error: null };
}
