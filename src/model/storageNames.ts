import { tableName } from '../naming.ts';

/**
 * The Storage bucket holding a files entity's bytes: one bucket per entity, named like its table,
 * so the migration and the adapter derive it the same way (from here, the one place it is spelled).
 *
 * @example
 * bucketName('ticketAttachment'); // 'ticket_attachment'
 */
export function bucketName(entity: string): string {
  return tableName(entity);
}

/**
 * The policy on `storage.objects` that lets a role act on a bucket's objects (unquoted).
 *
 * @example
 * storagePolicyName('attachment', 'read'); // 'ninefold__attachment__read'
 */
export function storagePolicyName(bucket: string, action: 'read' | 'create' | 'delete'): string {
  return `ninefold__${bucket}__${action}`;
}
