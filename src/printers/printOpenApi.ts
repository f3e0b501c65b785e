import type { AppModel } from '../model/appModel.ts';
import { modelOf, type SpecOrModel } from '../model/index.ts';
import { payloadFillsOf } from '../model/outbox.ts';
import { FIELD_TYPES, type ValueSchema } from '../spec/fieldTypes.ts';
import type { DeclaredCallSpec, ShapeSpec, ShapeType } from '../spec/types.ts';
import { type PrintColumn, type PrintTable, type PrintTransition, printerTables } from './printerModel.ts';

// `ninefold openapi`: every call of the app as the hosted project (PostgREST + Edge Functions)
// serves it. Derived calls per entity: list/get (GET /rest/v1/<table>, one row with
// `Accept: application/vnd.pgrst.object+json`: OpenAPI paths have no query strings, so get is the
// list call narrowed to `id=eq.<id>`), create (POST), update (PATCH with `id` and `version`),
// delete (DELETE), each transition (POST /rest/v1/rpc/<fn>) and the history
// (GET /rest/v1/<table>_history). Declared calls at their service. Errors: PostgREST answers a
// raised catalogue code with HTTP 400 and `{ code: 'P0001', message: '<CODE>', details: '<JSON>' }`,
// so each operation's 400 lists, as examples, the catalogue codes it can answer with.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

/** Columns that are not fields (id, timestamps, version, file metadata), by Postgres type. */
const SQL_SCHEMA: Record<string, Obj> = {
  text: { type: 'string' },
  uuid: { type: 'string', format: 'uuid' },
  timestamptz: { type: 'string', format: 'date-time' },
  integer: { type: 'integer' },
  bigint: { type: 'integer' },
};

const pascal = (name: string): string =>
  name
    .split(/[_\s-]+|(?=[A-Z])/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('');

/** A fresh, mutable copy of the registry's schema of a field type's values. */
function valueSchema(s: ValueSchema): Obj {
  return JSON.parse(JSON.stringify(s)) as Obj;
}

function columnSchema(c: PrintColumn): Obj {
  const base: Obj = c.spec
    ? valueSchema(FIELD_TYPES[c.spec.type].openApi)
    : { ...(SQL_SCHEMA[c.sqlType] ?? {}) };
  if (c.values) {
    if (c.sqlType === 'text[]') base.items = { type: 'string', enum: [...c.values] };
    else base.enum = [...c.values];
  }
  if (c.spec?.label) base.title = c.spec.label;
  if (c.spec?.help) base.description = c.spec.help;
  // The server sets it on every insert and update; a client only reads it.
  if (c.spec?.computed !== undefined) base.readOnly = true;
  if (c.nullable) {
    const t = base.type;
    base.type = [typeof t === 'string' ? t : 'string', 'null'];
    if (Array.isArray(base.enum)) base.enum = [...base.enum, null];
  }
  return base;
}

function rowSchemas(t: PrintTable, writable: ReadonlySet<string>): Record<string, Obj> {
  const name = pascal(t.entity);
  const props = (cols: readonly PrintColumn[]): Obj =>
    Object.fromEntries(cols.map((c) => [c.column, columnSchema(c)]));
  // A computed field is the server's: the row bookkeeping refuses a client's value for it.
  const sent = (c: PrintColumn) => writable.has(c.field) && c.spec?.computed === undefined;
  const writableCols = t.columns.filter((c) => sent(c) || (c.field === 'id' && c.optionalOnInsert));
  return {
    [name]: {
      type: 'object',
      title: t.label,
      // A read-restricted value is null where the caller may not read it.
      properties: props(t.columns.map((c) => (c.read === undefined ? c : { ...c, nullable: true }))),
      required: t.columns.map((c) => c.column),
    },
    [`${name}Insert`]: {
      type: 'object',
      properties: props(writableCols),
      required: writableCols.filter((c) => !c.optionalOnInsert).map((c) => c.column),
      additionalProperties: false,
    },
    [`${name}Update`]: {
      type: 'object',
      properties: props(t.columns.filter(sent)),
      additionalProperties: false,
    },
  };
}

function shapeSchema(shape: ShapeType): Obj {
  if (typeof shape === 'string') {
    if (shape === 'datetime') return { type: 'string', format: 'date-time' };
    if (shape === 'uuid' || shape === 'email') return { type: 'string', format: shape };
    return { type: shape };
  }
  if (Array.isArray(shape)) return { type: 'array', items: shapeSchema((shape as readonly [ShapeType])[0]) };
  const obj = shape as ShapeSpec;
  const entries = Object.entries(obj).map(([k, v]) => [k.replace(/\?$/, ''), v, k.endsWith('?')] as const);
  return {
    type: 'object',
    properties: Object.fromEntries(entries.map(([k, v]) => [k, shapeSchema(v)])),
    required: entries.filter(([, , optional]) => !optional).map(([k]) => k),
  };
}

const ref = (kind: 'schemas' | 'responses' | 'parameters', name: string): Obj => ({
  $ref: `#/components/${kind}/${name}`,
});

/** The 400 answer of an operation, with one example per catalogue code it can give. */
/**
 * `p_input.calls`: for each call the transition queues, the payload keys the client gives (the
 * database fills the row's own keys and they win), none of them required here: a call still
 * missing a key when due is failed, not sent (docs/decisions.md, finding 11).
 */
/** The payload keys of `call` the database fills when a transition of `entity` queues it. */
function serverFilled(model: AppModel, entity: string, call: string): Set<string> {
  return new Set(
    payloadFillsOf(model.outbox, entity, call)
      .filter((f) => f.shape !== undefined)
      .map((f) => f.key),
  );
}

function callsInput(model: AppModel, entity: string, calls: readonly string[]): Obj {
  // A call whose every key the database fills (the spec's `fill`) takes nothing from the client.
  const known = calls.filter((c) => {
    const payload = model.calls.get(c)?.payload;
    if (!payload) return false;
    const filled = serverFilled(model, entity, c);
    return Object.keys(payload).some((k) => !filled.has(k.replace(/\?$/, '')));
  });
  if (known.length === 0) return {};
  return {
    calls: {
      type: 'object',
      description: 'Payload keys of the calls this transition queues in the outbox (the row fills its own).',
      properties: Object.fromEntries(
        known.map((c) => {
          const { required: _, ...schema } = shapeSchema(model.calls.get(c)?.payload ?? {});
          const filled = serverFilled(model, entity, c);
          const properties = Object.fromEntries(
            Object.entries((schema.properties ?? {}) as Obj).filter(([k]) => !filled.has(k)),
          );
          return [c, { ...schema, properties, additionalProperties: false }];
        }),
      ),
    },
  };
}

function rejected(model: AppModel, codes: readonly string[]): Obj {
  const examples: Obj = {};
  for (const code of [...new Set(codes)].sort()) {
    const e = model.errors.get(code);
    examples[code] = {
      summary: e?.message ?? code,
      value: { code: 'P0001', message: code, details: '{}', hint: null },
    };
  }
  return {
    description: `Refused by a rule of the specification: \`message\` is the catalogue code (${[...new Set(codes)].sort().join(', ')}); \`details\` holds its parameters as JSON.`,
    content: { 'application/json': { schema: ref('schemas', 'Error'), examples } },
  };
}

function validationCodes(model: AppModel, entity: string): string[] {
  return (model.tables.get(entity)?.rules ?? []).map((r) => r.spec.error);
}

const idFilter: Obj = {
  name: 'id',
  in: 'query',
  required: true,
  description: 'The row: `eq.<id>`.',
  schema: { type: 'string', pattern: '^eq\\.' },
};

const rowsOf = (schema: Obj): Obj => ({ type: 'array', items: schema });

/** `/rest/v1/<table>`: list and get, create, update (by version), delete. */
function rowsPath(model: AppModel, t: PrintTable, validation: readonly string[]): Obj {
  const name = pascal(t.entity);
  const filters: Obj[] = t.columns.map((c) => ({
    name: c.column,
    in: 'query',
    required: false,
    description: `Filter on ${c.column}: \`eq.\`, \`neq.\`, \`lt.\`, \`lte.\`, \`gt.\`, \`gte.\`, \`in.(…)\`, \`is.null\`${c.sqlType === 'text[]' ? ', `cs.{…}`' : ''}.`,
    schema: { type: 'string' },
  }));
  return {
    get: {
      operationId: `list${name}`,
      summary: `List ${t.label} rows (get one: \`id=eq.<id>\` with \`Accept: application/vnd.pgrst.object+json\`)`,
      tags: [t.label],
      'x-ninefold-calls': ['list', 'get'],
      parameters: [
        ref('parameters', 'select'),
        ref('parameters', 'order'),
        ref('parameters', 'limit'),
        ref('parameters', 'offset'),
        ref('parameters', 'preferCount'),
        ...filters,
      ],
      responses: {
        '200': {
          description: `The ${t.label} rows the caller may read (row-level security filters the rest).`,
          content: {
            'application/json': { schema: rowsOf(ref('schemas', name)) },
            'application/vnd.pgrst.object+json': { schema: ref('schemas', name) },
          },
        },
        '401': ref('responses', 'NotSignedIn'),
        '406': ref('responses', 'NotOneRow'),
      },
    },
    post: {
      operationId: `create${name}`,
      summary: `Create a ${t.label}`,
      tags: [t.label],
      'x-ninefold-calls': ['create'],
      parameters: [ref('parameters', 'preferReturn')],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref('schemas', `${name}Insert`) } },
      },
      responses: {
        '201': {
          description: 'Created.',
          content: { 'application/json': { schema: rowsOf(ref('schemas', name)) } },
        },
        '400': rejected(model, [...validation, 'REQUIRED', 'INVALID_VALUE', 'FIELD_NOT_WRITABLE']),
        '401': ref('responses', 'NotSignedIn'),
        '403': ref('responses', 'Forbidden'),
        '409': ref('responses', 'UniqueOrReference'),
      },
    },
    patch: {
      operationId: `update${name}`,
      summary: `Update a ${t.label} (only when its version is still the one read)`,
      tags: [t.label],
      'x-ninefold-calls': ['update'],
      parameters: [
        idFilter,
        {
          name: 'version',
          in: 'query',
          required: true,
          description: 'The version read: `eq.<n>`. No row changed means CONFLICT.',
          schema: { type: 'string', pattern: '^eq\\.' },
        },
        ref('parameters', 'preferReturn'),
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref('schemas', `${name}Update`) } },
      },
      responses: {
        '200': {
          description:
            'The updated row; an empty array when the version changed meanwhile (CONFLICT) or the row may not be changed.',
          content: { 'application/json': { schema: rowsOf(ref('schemas', name)) } },
        },
        '400': rejected(model, [...validation, 'REQUIRED', 'INVALID_VALUE', 'FIELD_NOT_WRITABLE']),
        '401': ref('responses', 'NotSignedIn'),
        '403': ref('responses', 'Forbidden'),
        '409': ref('responses', 'UniqueOrReference'),
      },
    },
    delete: {
      operationId: `delete${name}`,
      summary: `Delete a ${t.label}`,
      tags: [t.label],
      'x-ninefold-calls': ['delete'],
      parameters: [idFilter],
      responses: {
        '204': { description: 'Deleted (or not visible to the caller: nothing happens).' },
        '401': ref('responses', 'NotSignedIn'),
        '409': ref('responses', 'UniqueOrReference'),
      },
    },
  };
}

/** `/rest/v1/rpc/<fn>`: one transition, its input and the codes it can refuse with. */
function transitionPath(
  model: AppModel,
  t: PrintTable,
  tr: PrintTransition,
  validation: readonly string[],
): Obj {
  const node = model.tables.get(t.entity);
  const name = pascal(t.entity);
  const transition = node?.transitions.find((x) => x.name === tr.name);
  // Required and optional input alike (INPUT_REQUIRED says which one was missing).
  const inputs = [...tr.input, ...(transition?.optionalInput ?? [])]
    .map((f) => node?.byField.get(f))
    .filter((c) => c !== undefined);
  const inputCols = t.columns.filter((c) => inputs.some((i) => i.field === c.field));
  return {
    post: {
      operationId: tr.fn,
      summary: `${transition?.label ?? tr.name}: ${tr.from.join(', ')} → ${tr.to} (${tr.roles.join(', ')})`,
      tags: [t.label],
      'x-ninefold-calls': [`transition:${tr.name}`],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                p_id: { type: 'string', format: 'uuid' },
                p_version: {
                  type: ['integer', 'null'],
                  description: 'The version read; another means CONFLICT.',
                },
                p_input: {
                  type: 'object',
                  properties: {
                    ...Object.fromEntries(inputCols.map((c) => [c.field, columnSchema(c)])),
                    ...callsInput(model, t.entity, transition?.calls ?? []),
                  },
                },
              },
              required: ['p_id'],
            },
          },
        },
      },
      responses: {
        '200': {
          description: `The ${t.label} after the transition.`,
          content: { 'application/json': { schema: ref('schemas', name) } },
        },
        '400': rejected(model, [
          ...(transition?.guardError ? [transition.guardError] : []),
          ...validation,
          'NOT_FOUND',
          'FORBIDDEN',
          'CONFLICT',
          'INVALID_TRANSITION',
          'INPUT_REQUIRED',
        ]),
        '401': ref('responses', 'NotSignedIn'),
      },
    },
  };
}

/** `/rest/v1/<history table>`: the append-only transitions of a row. */
function historyPath(t: PrintTable): Obj {
  const name = pascal(t.entity);
  return {
    get: {
      operationId: `history${name}`,
      summary: `The transitions of a ${t.label}, oldest first (append-only)`,
      tags: [t.label],
      'x-ninefold-calls': ['history'],
      parameters: [
        {
          name: 'row_id',
          in: 'query',
          required: true,
          description: `The ${t.label}: \`eq.<id>\`.`,
          schema: { type: 'string' },
        },
        ref('parameters', 'order'),
      ],
      responses: {
        '200': {
          description: 'History entries of rows the caller may read.',
          content: { 'application/json': { schema: rowsOf(ref('schemas', 'HistoryEntry')) } },
        },
        '401': ref('responses', 'NotSignedIn'),
      },
    },
  };
}

/** The list/get operation on a table's masking view: restricted fields are null where not readable. */
function readViewGet(get: Obj, t: PrintTable): Obj {
  const hidden = t.columns.filter((c) => c.read !== undefined).map((c) => `\`${c.column}\` (${c.read})`);
  return {
    ...get,
    description: `Rows are read here, not from \`${t.table}\`: a select naming a read-restricted column of the table is refused (42501). Here those columns are null where the caller may not read them: ${hidden.join(', ')}. Filters and sorts on them compare the masked value. Each row also carries \`ninefold_hidden\` (text[]): the fields the caller may not read on that row.`,
  };
}

function entityPaths(model: AppModel, t: PrintTable): Record<string, Obj> {
  const validation = validationCodes(model, t.entity);
  const rows = rowsPath(model, t, validation);
  const paths: Record<string, Obj> = { [`/rest/v1/${t.table}`]: rows };
  if (t.readTable !== t.table) {
    // Per-field reads: the table's read-restricted columns are granted to no client, so rows are
    // read from the masking view; writes stay on the table.
    const { get, ...writes } = rows;
    paths[`/rest/v1/${t.table}`] = writes;
    paths[`/rest/v1/${t.readTable}`] = { get: readViewGet(get as Obj, t) };
  }
  for (const tr of t.transitions) paths[`/rest/v1/rpc/${tr.fn}`] = transitionPath(model, t, tr, validation);
  if (t.history) paths[`/rest/v1/${t.history}`] = historyPath(t);
  return paths;
}

function declaredPath(model: AppModel, name: string, call: DeclaredCallSpec): [string, Obj] {
  const path = call.path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
  const params = [...call.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => ({
    name: m[1] ?? '',
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const external = call.service.includes('.');
  const operation: Obj = {
    operationId: name,
    summary: call.description,
    tags: ['Declared calls'],
    'x-ninefold-calls': [`declared:${name}`],
    'x-ninefold-roles': [...call.roles],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(call.method === 'GET' || call.method === 'DELETE'
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: shapeSchema(call.payload) } },
          },
        }),
    responses: {
      '200': {
        description: 'Done.',
        content: { 'application/json': { schema: shapeSchema(call.response) } },
      },
      '400': rejected(model, [call.error]),
    },
  };
  const item: Obj = { [call.method.toLowerCase()]: operation };
  if (external) item.servers = [{ url: `https://${call.service}` }];
  return [external ? path : `/functions/v1/${call.service}${path.startsWith('/') ? path : `/${path}`}`, item];
}

/**
 * The OpenAPI 3.1 document of every call of an app (derived and declared), with the catalogue's
 * errors as responses. Pure; `JSON.stringify` it.
 *
 * @example
 * writeFileSync('openapi.json', JSON.stringify(openApiDocument(spec), null, 2));
 */
export function openApiDocument(app: SpecOrModel): Obj {
  return openApiOf(modelOf(app));
}

/** {@link openApiDocument} of a resolved app. */
export function openApiOf(model: AppModel): Obj {
  const tables = printerTables(model);
  const schemas: Record<string, Obj> = {};
  let paths: Record<string, Obj> = {};
  for (const t of tables) {
    Object.assign(schemas, rowSchemas(t, model.tables.get(t.entity)?.writable ?? new Set()));
    paths = { ...paths, ...entityPaths(model, t) };
  }
  const declared = [...model.calls].map(([n, c]) => declaredPath(model, n, c));
  for (const [path, item] of declared) paths[path] = { ...(paths[path] ?? {}), ...item };
  const codes = [...model.errors.keys()].sort();
  return {
    openapi: '3.1.0',
    info: {
      title: model.purpose.name,
      version: '1',
      summary: `Every call of ${model.purpose.name}, generated by \`ninefold openapi\` from its specification.`,
      description: model.purpose.summary,
    },
    servers: [
      {
        url: 'https://{project}.supabase.co',
        description: 'The Supabase project the migration was pushed to.',
        variables: { project: { default: 'your-project-ref' } },
      },
    ],
    security: [{ apikey: [], bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        apikey: { type: 'apiKey', in: 'header', name: 'apikey', description: "The project's anon key." },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "The signed-in user's access token.",
        },
      },
      parameters: {
        select: {
          name: 'select',
          in: 'query',
          schema: { type: 'string' },
          description: 'Columns to return.',
        },
        order: {
          name: 'order',
          in: 'query',
          schema: { type: 'string' },
          description: '`<column>.asc|desc`, comma-separated.',
        },
        limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0 } },
        offset: { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
        preferCount: {
          name: 'Prefer',
          in: 'header',
          schema: { type: 'string', enum: ['count=exact'] },
          description: 'Ask for the total in `Content-Range`.',
        },
        preferReturn: {
          name: 'Prefer',
          in: 'header',
          schema: { type: 'string', enum: ['return=representation', 'return=minimal'] },
        },
      },
      responses: {
        NotSignedIn: { description: 'No valid session (NOT_SIGNED_IN, SESSION_EXPIRED).' },
        Forbidden: {
          description: 'A row-level-security policy refused the write (FORBIDDEN).',
          content: { 'application/json': { schema: ref('schemas', 'Error') } },
        },
        NotOneRow: {
          description: 'Asked for one row (`vnd.pgrst.object+json`) and there was none (NOT_FOUND).',
        },
        UniqueOrReference: {
          description:
            'A unique value is taken (UNIQUE) or a reference is missing or still used (REFERENCE).',
          content: { 'application/json': { schema: ref('schemas', 'Error') } },
        },
      },
      schemas: {
        ...schemas,
        HistoryEntry: HISTORY_ENTRY,
        ErrorCode: {
          type: 'string',
          enum: codes,
          description: 'The catalogue (section 8) and the built-in codes.',
        },
        Error: {
          type: 'object',
          description: 'How the database reports a refusal through PostgREST.',
          properties: {
            code: { type: 'string', description: 'SQLSTATE: P0001 for a raised catalogue code.' },
            message: {
              description: 'A catalogue code when a rule refused (P0001); otherwise PostgREST’s own message.',
              anyOf: [ref('schemas', 'ErrorCode'), { type: 'string' }],
            },
            details: { type: ['string', 'null'], description: "The code's parameters as JSON." },
            hint: { type: ['string', 'null'] },
          },
          required: ['code', 'message'],
        },
      },
    },
  };
}

/** `ninefold openapi`: the document as JSON text. */
export function printOpenApi(app: SpecOrModel): string {
  return `${JSON.stringify(openApiDocument(app), null, 2)}\n`;
}

/** A row of a `<table>_history` table, as PostgREST returns it. */
const HISTORY_ENTRY: Obj = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    row_id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: ['transition', 'edit', 'added'] },
    transition: { type: 'string' },
    from_state: { type: 'string' },
    to_state: { type: 'string' },
    actor: { type: ['string', 'null'], format: 'uuid' },
    at: { type: 'string', format: 'date-time' },
    input: { type: 'object' },
    previous: {
      type: 'object',
      description: 'An edit: the fields as they were before it (input holds their new values).',
    },
  },
  required: [
    'id',
    'row_id',
    'kind',
    'transition',
    'from_state',
    'to_state',
    'actor',
    'at',
    'input',
    'previous',
  ],
};
