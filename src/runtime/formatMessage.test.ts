import { afterEach, describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import tasksSpec from '../../examples/tasks/spec.ts';
import { BUILTIN_ERROR_CODES } from '../backend/types.ts';
import { resolve } from '../model/resolve.ts';
import type { AppSpec } from '../spec/types.ts';
import { rooms } from '../sql/fixtures/rooms.ts';
import { dateText } from './dateText.ts';
import { formatMessage, messageSeverity } from './formatMessage.ts';
import { setLocale } from './locale.ts';
import { UI_TEXT } from './uiText.ts';

/** Tests hand over partial specs (two or three sections); resolve completes the rest. */
const model = (spec: object) => resolve(spec as AppSpec);

const spec = {
  errors: {
    TOO_MANY: { message: 'At most {maxFiles} files, you have {count}.', severity: 'warning' as const },
    LIST: { message: 'Allowed: {kinds}.', severity: 'error' as const },
  },
  constants: {
    maxFiles: { value: 5, label: 'Max files' },
    kinds: { value: ['a', 'b'], label: 'Kinds' },
  },
};

describe('formatMessage', () => {
  it('fills placeholders from constants and params', () => {
    expect(formatMessage(model(spec), 'TOO_MANY', { count: 7 })).toBe('At most 5 files, you have 7.');
  });
  it('joins list constants', () => {
    expect(formatMessage(model(spec), 'LIST')).toBe('Allowed: a, b.');
  });
  it('params win over constants', () => {
    expect(formatMessage(model(spec), 'TOO_MANY', { maxFiles: 3, count: 4 })).toBe(
      'At most 3 files, you have 4.',
    );
  });
  it('falls back to UI text for built-in codes', () => {
    expect(formatMessage(model(spec), 'NOT_FOUND')).toMatch(/not available to you/);
    expect(formatMessage(model(spec), 'CONFLICT')).toMatch(/changed by someone else/);
  });
  it('never shows an unknown code raw', () => {
    const m = formatMessage(model(spec), 'duplicate key value violates unique constraint "x"');
    expect(m).not.toMatch(/duplicate key/);
    expect(m).toMatch(/Something went wrong/);
  });
  it('severity comes from the catalogue', () => {
    expect(messageSeverity(model(spec), 'TOO_MANY')).toBe('warning');
    expect(messageSeverity(model(spec), 'FORBIDDEN')).toBe('error');
  });
});

describe('built-in error codes', () => {
  it('each has its own message, never the generic fallback', () => {
    const empty = { errors: {}, constants: {} };
    const generic = BUILTIN_ERROR_CODES.filter(
      (c) => formatMessage(model(empty), c) === UI_TEXT.error_UNKNOWN,
    );
    expect(generic).toEqual([]);
  });
});

describe("issue 31.3: money in messages keeps its currency, in the person's locale", () => {
  it('a money constant reads as money: "at most €5,000.00", never "at most 5000"', () => {
    expect(formatMessage(model(expenses), 'LINE_AMOUNT_TOO_HIGH')).toBe(
      'One expense may be at most €5,000.00; larger purchases go through purchasing.',
    );
    expect(formatMessage(model(expenses), 'RECEIPT_REQUIRED')).toBe('Expenses above €25.00 need a receipt.');
    expect(formatMessage(model(expenses), 'MILEAGE_RATE_EXCEEDED')).toBe(
      'Mileage is paid at most €0.30 per km.',
    );
  });
  it('in German the same constant is written the German way', () => {
    setLocale('de');
    try {
      // Intl writes a narrow no-break space before the sign.
      expect(formatMessage(model(expenses), 'LINE_AMOUNT_TOO_HIGH').replace(/\s/g, ' ')).toContain(
        '5.000,00 €',
      );
    } finally {
      setLocale('en');
    }
  });
  it("a money field named by a message reads in its row's currency", () => {
    const spec = {
      entities: {
        line: {
          label: 'Line',
          fields: {
            amount: { type: 'money' as const, currencyField: 'currency' },
            currency: { type: 'text' as const },
          },
        },
      },
      errors: {
        TOO_HIGH: { message: '{amount} is too much.', severity: 'error' as const, field: 'line.amount' },
      },
      constants: {},
    };
    expect(formatMessage(model(spec), 'TOO_HIGH', { amount: 1234.5, currency: 'USD' })).toBe(
      '$1,234.50 is too much.',
    );
  });
  it("a constant in the currency it bounds (`unit: 'currency'`) reads in the row's currency", () => {
    const tasks = model(tasksSpec);
    expect(formatMessage(tasks, 'RATE_TOO_HIGH', { hourlyRate: 900, currency: 'JPY' })).toBe(
      'An hourly rate may be at most ¥500.',
    );
    expect(formatMessage(tasks, 'RATE_TOO_HIGH', { currency: 'EUR' })).toBe(
      'An hourly rate may be at most €500.00.',
    );
    // A server's refusal of the check carries no row: the amount alone, never another currency's.
    expect(formatMessage(tasks, 'RATE_TOO_HIGH', {})).toBe('An hourly rate may be at most 500.00.');
  });
  it('a number constant without a currency stays as it is', () => {
    expect(formatMessage(model(expenses), 'TOO_MANY_LINES')).toBe(
      'A claim may have at most 50 lines; start a second claim.',
    );
  });
});

describe('declared message parameters', () => {
  const roomsModel = resolve(rooms);
  afterEach(() => setLocale('en'));

  it('formats a date in the person’s locale, a number with its separators', () => {
    const params = { entity: 'shift', field: 'hours', logged: 1234.5, day: '2026-11-20' };
    expect(formatMessage(roomsModel, 'DAY_FULL', params)).toBe(
      'You logged 1,234.5 hours on 20 Nov 2026; at most 10.',
    );
    setLocale('de');
    expect(formatMessage(roomsModel, 'DAY_FULL', params)).toBe(
      'You logged 1.234,5 hours on 20. Nov. 2026; at most 10.',
    );
  });

  it('shows the other row’s times in the person’s time zone', () => {
    const start = '2026-11-26T09:00:00+00:00';
    const end = '2026-11-26T11:30:00+00:00';
    const text = formatMessage(roomsModel, 'ROOM_TAKEN', { entity: 'booking', start, end });
    const local = (iso: string) => {
      const d = new Date(iso);
      return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    };
    expect(text).toBe(
      `That room is taken from ${dateText(start, { time: true })} to ${dateText(end, { time: true })}.`,
    );
    expect(text).toContain(local(end));
  });

  it('fills a parameter naming a field of the row from the row a form checks', () => {
    expect(formatMessage(roomsModel, 'DAY_FULL', { day: '2026-11-20', hours: 4 })).toBe(
      'You logged {logged} hours on 20 Nov 2026; at most 10.',
    );
  });

  it('writes money in its currency', () => {
    const spec = {
      entities: {
        claim: { label: 'Claim', fields: { amount: { type: 'money', currency: 'EUR' } } },
      },
      validation: {
        claim: [{ kind: 'row', rule: 'sum(claim.amount) <= 100', error: 'BUDGET', field: 'amount' }],
      },
      errors: { BUDGET: { message: 'Claims total {total}.', severity: 'error', params: { total: 'sum' } } },
      constants: {},
    };
    expect(formatMessage(model(spec), 'BUDGET', { total: 5000 })).toBe('Claims total €5,000.00.');
  });
});
