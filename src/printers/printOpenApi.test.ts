import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import expenses from '../../examples/expenses/spec.ts';
import helpdesk from '../../examples/helpdesk/spec.ts';
import tasks from '../../examples/tasks/spec.ts';
import { mini } from '../sql/fixtures/mini.ts';
import { openApiDocument, printOpenApi } from './printOpenApi.ts';
import { expectGolden, goldenFile } from './testing/golden.ts';

type Doc = {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
};

describe('printOpenApi', () => {
  it('matches the golden documents', () => {
    expectGolden(goldenFile('helpdesk.openapi.json'), printOpenApi(helpdesk));
    expectGolden(goldenFile('expenses.openapi.json'), printOpenApi(expenses));
    expectGolden(goldenFile('mini.openapi.json'), printOpenApi(mini));
  });

  it.each([
    ['helpdesk', helpdesk],
    ['expenses', expenses],
    ['mini', mini],
    ['tasks', tasks],
  ])('the %s document is valid OpenAPI 3.1', async (_name, spec) => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(printOpenApi(spec)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('the validator refuses a broken document (the check above can fail)', async () => {
    const doc = JSON.parse(printOpenApi(mini)) as Doc;
    (doc.paths['/rest/v1/ticket'] as Record<string, unknown>).get = { responses: 'none' };
    expect((await new Validator().validate(doc)).valid).toBe(false);
  });

  it('has every derived call of every entity, each transition, the history and the declared calls', () => {
    const doc = openApiDocument(helpdesk) as unknown as Doc;
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    for (const entity of Object.keys(helpdesk.entities)) {
      const Name = entity[0]?.toUpperCase() + entity.slice(1);
      for (const verb of ['list', 'create', 'update', 'delete']) expect(ops).toContain(`${verb}${Name}`);
    }
    for (const t of Object.keys(helpdesk.states.ticket?.transitions ?? {}))
      expect(ops).toContain(`ticket_${t.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`);
    expect(ops).toContain('historyTicket');
    for (const call of Object.keys(helpdesk.calls.declared)) expect(ops).toContain(call);
  });

  it("lists the catalogue's errors as responses: a transition's guard error, an entity's validation codes", () => {
    const doc = openApiDocument(mini) as unknown as Doc;
    const solve = doc.paths['/rest/v1/rpc/ticket_solve']?.post?.responses['400'] as {
      content: { 'application/json': { examples: Record<string, { summary: string }> } };
    };
    const examples = solve.content['application/json'].examples;
    expect(Object.keys(examples)).toEqual(
      expect.arrayContaining(['NOT_ASSIGNED', 'TITLE_TOO_SHORT', 'CONFLICT']),
    );
    expect(examples.TITLE_TOO_SHORT?.summary).toBe(mini.errors.TITLE_TOO_SHORT?.message);
  });
});

describe('computed fields', () => {
  const spec = {
    ...mini,
    entities: {
      ...mini.entities,
      ticket: {
        ...mini.entities.ticket,
        fields: {
          ...mini.entities.ticket.fields,
          hours: { type: 'number' as const },
          doubled: { type: 'number' as const, computed: 'hours * 2' },
        },
      },
    },
  };
  type Schemas = Record<string, { properties: Record<string, { readOnly?: boolean }> }>;
  const schemas = (openApiDocument(spec) as unknown as { components: { schemas: Schemas } }).components
    .schemas;

  it('are readOnly in the row (the server sets them), and absent from insert and update', () => {
    expect(schemas.Ticket?.properties.doubled?.readOnly).toBe(true);
    expect(schemas.Ticket?.properties.hours?.readOnly).toBeUndefined();
    expect(schemas.TicketInsert?.properties.doubled).toBeUndefined();
    expect(schemas.TicketUpdate?.properties.doubled).toBeUndefined();
  });

  it('the document stays valid OpenAPI 3.1', async () => {
    expect((await new Validator().validate(JSON.parse(printOpenApi(spec)))).valid).toBe(true);
  });
});

describe('per-field reads', () => {
  const doc = JSON.parse(printOpenApi(tasks)) as Doc & {
    components: { schemas: Record<string, { properties: Record<string, { type: unknown }> }> };
  };

  it('rows are read from the masking view; writes stay on the table', () => {
    expect(Object.keys(doc.paths['/rest/v1/time_entry'] ?? {}).sort()).toEqual(['delete', 'patch', 'post']);
    expect(Object.keys(doc.paths['/rest/v1/time_entry__readable'] ?? {})).toEqual(['get']);
    expect(doc.paths['/rest/v1/time_entry__readable']?.get?.operationId).toBe('listTimeEntry');
    // An entity without a read rule keeps its list on the table.
    expect(Object.keys(doc.paths['/rest/v1/task'] ?? {})).toContain('get');
  });

  it('a read-restricted value may be null in the row (masked), whatever its type', () => {
    const row = doc.components.schemas.TimeEntry?.properties ?? {};
    expect(row.rate?.type).toEqual(expect.arrayContaining(['null']));
    expect(row.hours?.type).not.toEqual(expect.arrayContaining(['null']));
  });
});
