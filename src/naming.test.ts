import { describe, expect, it } from 'vitest';
import { columnName, snakeCase, tableName, transitionFunctionName } from './naming.ts';

describe('naming', () => {
  it('snake-cases camelCase, acronyms and digits', () => {
    expect(snakeCase('expenseClaim')).toBe('expense_claim');
    expect(snakeCase('receiptURL')).toBe('receipt_url');
    expect(snakeCase('HTTPStatus')).toBe('http_status');
    expect(snakeCase('line2Amount')).toBe('line2_amount');
    expect(snakeCase('already_snake')).toBe('already_snake');
    expect(snakeCase('ticket')).toBe('ticket');
  });

  it('derives table, column and transition function names', () => {
    expect(tableName('expenseClaim')).toBe('expense_claim');
    expect(columnName('createdAt')).toBe('created_at');
    expect(transitionFunctionName('expenseClaim', 'sendBack')).toBe('expense_claim_send_back');
  });
});
