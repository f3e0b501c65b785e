/**
 * The field-type registry (src/spec/fieldTypes.ts, issue 29): every registered type is accepted by
 * the validator, written and read back by the document, given its registry SQL type by the
 * migration (on PGlite) and its registry schema by the OpenAPI document. The app is built from the
 * registry, so a new type is covered here without editing this file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSpec } from '../../src/check/validateSpec.ts';
import { renderDoc } from '../../src/doc/renderDoc.ts';
import { importDoc } from '../../src/import/importDoc.ts';
import { resolve } from '../../src/model/resolve.ts';
import { printOpenApi } from '../../src/printers/printOpenApi.ts';
import { FIELD_TYPE_NAMES, FIELD_TYPES } from '../../src/spec/fieldTypes.ts';
import type { AppSpec, FieldSpec, FieldType } from '../../src/spec/types.ts';
import { compileMigration } from '../../src/sql/compileMigration.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration } from '../../src/sql/testing/users.ts';

/** One field of every registered type, with what its type needs (a target, states, values). */
function field(type: FieldType): FieldSpec {
  if (type === 'ref') return { type, ref: 'person' };
  if (type === 'enum' || type === 'tags') return { type, values: ['a', 'b'] };
  return { type };
}

/** A small valid app whose `thing` has a field of every type in the registry. */
function everyType(): AppSpec {
  return {
    purpose: { name: 'Every type', summary: 'One field of each type.', users: ['Members'] },
    screens: {
      things: { route: '/things', kind: 'list', title: 'Things', entity: 'thing', nav: ['member'] },
    },
    entities: {
      person: { label: 'Person', profile: true, fields: { name: { type: 'text', required: true } } },
      thing: {
        label: 'Thing',
        fields: Object.fromEntries(FIELD_TYPE_NAMES.map((t) => [`${t}Field`, field(t)])),
      },
    },
    states: {
      thing: {
        field: 'statusField',
        initial: 'open',
        states: { open: {}, done: { final: true } },
        transitions: { finish: { from: ['open'], to: 'done', roles: ['member'] } },
      },
    },
    validation: {},
    roles: {
      roles: { member: { label: 'Member', signup: true } },
      permissions: { member: { thing: { read: true, create: true } } },
    },
    calls: { declared: {} },
    errors: {},
    constants: {},
  } as AppSpec;
}

describe('field-type registry (issue 29: one entry per type)', () => {
  it('issue 29: the test app is valid, so every registered type passes the validator', () => {
    expect(validateSpec(everyType()).diagnostics).toEqual([]);
  });

  it("issue 29: every type's document words read back as that type (doc words ↔ importer inverse)", () => {
    const spec = everyType();
    const r = importDoc(renderDoc(spec));
    expect(r.diagnostics).toEqual([]);
    const types = Object.fromEntries(
      Object.entries(r.spec?.entities.thing?.fields ?? {}).map(([n, f]) => [n, f.type]),
    );
    expect(types).toEqual(Object.fromEntries(FIELD_TYPE_NAMES.map((t) => [`${t}Field`, t])));
  });

  it("issue 29: the model's columns and the OpenAPI document take each type's SQL type and schema from the registry", () => {
    const spec = everyType();
    const table = resolve(spec).tables.get('thing');
    const api = JSON.parse(printOpenApi(spec)) as {
      components: {
        schemas: Record<string, { properties: Record<string, { type: unknown; format?: string }> }>;
      };
    };
    const props = api.components.schemas.Thing?.properties ?? {};
    for (const t of FIELD_TYPE_NAMES) {
      if (t === 'file') continue; // files live in their own rows, not in a column
      const c = table?.byField.get(`${t}Field`);
      expect(c?.sqlType, t).toBe(FIELD_TYPES[t].sql);
      const p = props[c?.column ?? ''];
      const type = Array.isArray(p?.type) ? p.type[0] : p?.type;
      expect(type, t).toBe(FIELD_TYPES[t].openApi.type);
      expect(p?.format, t).toBe(FIELD_TYPES[t].openApi.format);
    }
  });

  it('issue 29: every word the importer reads names exactly one type, and no type shares its words', () => {
    const words = FIELD_TYPE_NAMES.flatMap((t) => [FIELD_TYPES[t].words, ...FIELD_TYPES[t].alsoRead]);
    expect(new Set(words).size).toBe(words.length);
  });

  describe('on PGlite', () => {
    let db: TestDb;
    beforeAll(async () => {
      db = await createPgliteDb();
      await applyMigration(db, compileMigration(everyType()));
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it("issue 29: the migration gives each type's column the registry's SQL type", async () => {
      for (const t of FIELD_TYPE_NAMES) {
        const column = resolve(everyType()).tables.get('thing')?.byField.get(`${t}Field`)?.column;
        if (t === 'file') continue; // files live in their own rows, not in a column
        const r = await db.query(
          `select count(*)::int as n from pg_attribute
            where attrelid = 'public.thing'::regclass and attname = $1 and atttypid = $2::regtype`,
          [column, FIELD_TYPES[t].sql],
        );
        expect(r.rows[0], t).toEqual({ n: 1 });
      }
    });
  });
});
