export { createSupabaseBackend, type SupabaseBackendOptions } from './createSupabaseBackend.ts';
