import { isDeepStrictEqual } from 'node:util';
import { apiErrorSchema, routes, type RouteDef } from '@tradeshelf/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUser } from '../../test/factories/users.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { presentUser } from '../modules/users/presenter.ts';
import { findUserById } from '../modules/users/repository.ts';
import { registerRoute } from './routes.ts';
import {
  compileResponseSerializer,
  createResponseSerializerCompiler,
  toSerializerSchema,
} from './serializer.ts';

type Schema = z.core.$ZodType;

/** Planted in every undeclared property: it must never reach a response. */
const LEAK = 'LEAK-not-in-schema';
const TRICKY = 'He said "hi" \\ back\nslash\t</script> é 😀 \u2028 \u0000 \u001f';
const LONE_SURROGATE = 'half \ud800 a pair';

/** Every response schema the API can emit: each route's success body, and the error body. */
const responseSchemas: [string, Schema][] = [
  // A file answer (`produces`) is sent as text, never through a serialiser.
  ...Object.entries(routes)
    .filter(([, r]) => !('produces' in r && r.produces))
    .map(([name, r]): [string, Schema] => [name, r.response]),
  ['apiError (4XX/5XX)', apiErrorSchema],
];

const defOf = (s: Schema) => s._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;

function stringBounds(s: Schema): { min: number; max: number } {
  let min = 0;
  let max = Infinity;
  for (const c of (defOf(s).checks as z.core.$ZodCheck[] | undefined) ?? []) {
    const d = c._zod.def as { check: string; minimum?: number; maximum?: number; length?: number };
    if (d.check === 'length_equals') min = max = d.length!;
    if (d.check === 'min_length') min = d.minimum!;
    if (d.check === 'max_length') max = d.maximum!;
  }
  return { min, max };
}

const isInt = (s: Schema) =>
  ((defOf(s).checks as z.core.$ZodCheck[] | undefined) ?? []).some(
    (c) => (c._zod.def as { format?: string }).format === 'safeint',
  );

/** Adds undeclared properties, as a row or a careless spread would. */
function withLeaks(obj: Record<string, unknown>): Record<string, unknown> {
  return { ...obj, passwordHash: `argon2id$${LEAK}`, internal: { secret: LEAK }, [LEAK]: 1 };
}

/** A record as `JSON.parse` builds it from a stored document, with an own `__proto__` key. */
function withProtoKey(obj: Record<string, unknown>, value: unknown): Record<string, unknown> {
  Object.defineProperty(obj, '__proto__', {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return obj;
}

/** A plausible string for a field, by its name, within the schema's length bounds. */
function sampleString(s: Schema, key: string, variant: 'full' | 'sparse', n: number): string {
  const { min, max } = stringBounds(s);
  let value: string;
  if (z.globalRegistry.get(s)?.format === 'date-time' || /At$|End$/.test(key)) {
    value = new Date(Date.UTC(2026, 10, 23, 9, 30, n, 120)).toISOString();
  } else if (key === 'currency') value = 'usd';
  else if (/email/i.test(key)) value = `ana.${n}@example.com`;
  else if (/url$/i.test(key)) value = `https://cdn.tradeshelf.test/media/${n}.webp?w=640&q="80"`;
  else if (/token/i.test(key)) value = `eyJhbGciOiJIUzI1NiJ9.${n}.sig`;
  else if (/id$/i.test(key)) value = `prd_01JD${n}X7Q2`;
  else value = variant === 'sparse' ? '' : n % 2 ? LONE_SURROGATE : TRICKY;
  if (value.length > max) value = value.slice(0, max);
  return value.padEnd(min, 'x');
}

/**
 * Realistic data for a schema. `full`: every optional field present, nullables set, arrays of two.
 * `sparse`: optional fields absent, nullables null, arrays and records empty, empty strings, -0.
 * Objects carry undeclared properties either way.
 */
function sample(s: Schema, variant: 'full' | 'sparse', key = '', n = 1): unknown {
  const def = defOf(s);
  switch (def.type) {
    case 'string':
      return sampleString(s, key, variant, n);
    case 'number':
      if (variant === 'sparse') return isInt(s) ? 0 : -0;
      return isInt(s) ? 4900 + n : 4.35 + n;
    case 'boolean':
      return variant === 'full';
    case 'enum': {
      const values = Object.values(def.entries as Record<string, string>);
      return variant === 'full' ? values.at(-1) : values[0];
    }
    case 'literal':
      return (def.values as unknown[])[0];
    case 'nullable':
      return variant === 'sparse' ? null : sample(def.innerType as Schema, variant, key, n);
    case 'optional':
      return sample(def.innerType as Schema, variant, key, n);
    case 'array':
      return variant === 'sparse'
        ? []
        : [0, 1].map((i) => sample(def.element as Schema, variant, key, n + i));
    case 'record': {
      if (variant === 'sparse') return {};
      const value = (k: string) => sample(def.valueType as Schema, variant, k, n);
      return withProtoKey({ twitter: value('twitterUrl'), 'odd "key"\n': value('') }, LEAK);
    }
    case 'union': {
      const options = def.options as Schema[];
      return sample(variant === 'full' ? options.at(-1)! : options[0]!, variant, key, n);
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, prop] of Object.entries(def.shape as Record<string, Schema>)) {
        if (variant === 'sparse' && defOf(prop).type === 'optional') continue;
        out[k] = sample(prop, variant, k, n);
      }
      return withLeaks(out);
    }
    default:
      throw new Error(`no sample for ${def.type}`);
  }
}

/** The same space, drawn at random: any string (surrogates included), numbers, sizes, absences. */
function arbitrary(s: Schema, key = ''): fc.Arbitrary<unknown> {
  const def = defOf(s);
  switch (def.type) {
    case 'string': {
      const { min, max } = stringBounds(s);
      if (min > 0 || max < Infinity) return fc.string({ minLength: min, maxLength: max });
      return fc.oneof(
        fc.string({ unit: 'binary', maxLength: 24 }),
        fc.constantFrom(TRICKY, LONE_SURROGATE, ''),
        fc.string({ minLength: 40, maxLength: 120 }),
      );
    }
    case 'number':
      return isInt(s) ? fc.maxSafeInteger() : fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'nullable':
      return fc.option(arbitrary(def.innerType as Schema, key), { nil: null });
    case 'array':
      return fc.array(arbitrary(def.element as Schema, key), { maxLength: 3 });
    case 'union':
      return fc.oneof(...(def.options as Schema[]).map((o) => arbitrary(o, key)));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), arbitrary(def.valueType as Schema), {
        maxKeys: 4,
      });
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [k, prop] of Object.entries(def.shape as Record<string, Schema>)) {
        const propDef = defOf(prop);
        if (propDef.type === 'optional') {
          // Absent, or present as undefined, or set.
          model[k] = fc.option(arbitrary(propDef.innerType as Schema, k), { nil: undefined });
        } else {
          model[k] = arbitrary(prop, k);
          required.push(k);
        }
      }
      return fc
        .tuple(fc.record(model, { requiredKeys: required }), fc.boolean())
        .map(([obj, leak]) => (leak ? withLeaks(obj) : obj));
    }
    default:
      throw new Error(`no arbitrary for ${def.type}`);
  }
}

/** Asserts a serialiser writes what zod's encode + JSON.stringify writes, and nothing undeclared. */
function assertParity(schema: Schema, serialize: (data: unknown) => string, data: unknown): void {
  const expected = JSON.stringify(z.encode(schema, data as never));
  const actual = serialize(data);
  if (actual.includes(LEAK) || actual.includes('passwordHash')) {
    throw new Error(`undeclared property written: ${actual}`);
  }
  if (!isDeepStrictEqual(JSON.parse(actual), JSON.parse(expected))) {
    throw new Error(`differs from zod:\n  zod:      ${expected}\n  compiled: ${actual}`);
  }
}

describe('compiled response serialisers', () => {
  it('compile every response schema of the contract (none falls back to zod)', () => {
    const fallbacks = responseSchemas
      .map(([name, schema]) => [name, compileResponseSerializer(schema)] as const)
      .filter(([, c]) => !c.fast)
      .map(([name, c]) => `${name}: ${c.fast ? '' : c.reason}`);
    expect(fallbacks).toEqual([]);
    const files = Object.values(routes).filter((r) => 'produces' in r && r.produces).length;
    expect(responseSchemas.length).toBe(Object.keys(routes).length - files + 1);
  });

  describe.each(responseSchemas)('%s', (_name, schema) => {
    const { serialize } = compileResponseSerializer(schema);

    it('matches zod on full and sparse samples and drops undeclared properties', () => {
      for (const variant of ['full', 'sparse'] as const) {
        const data = sample(schema, variant);
        // The sample is valid: zod itself accepts it.
        expect(z.safeEncode(schema, data as never).success).toBe(true);
        assertParity(schema, serialize, data);
      }
    });

    it('matches zod on random values', () => {
      fc.assert(
        fc.property(arbitrary(schema), (data) => assertParity(schema, serialize, data)),
        { numRuns: 150 },
      );
    });
  });

  it('catches a serialiser that leaks or drifts (the parity check can fail)', () => {
    const schema = routes.getProfile.response;
    const data = sample(schema, 'full');
    expect(() => assertParity(schema, JSON.stringify, data)).toThrow(/undeclared property/);
    const drifted = compileResponseSerializer(z.object({ user: z.object({ id: z.string() }) }));
    expect(() => assertParity(schema, drifted.serialize, data)).toThrow(/differs from zod/);
    const card = routes.sellerProductList.response;
    const cards = sample(card, 'full') as { products: { price: { amount: number } }[] };
    const plain = compileResponseSerializer(card).serialize;
    expect(() =>
      assertParity(card, (d) => plain(d).replace('"amount":4901', '"amount":4902'), cards),
    ).toThrow(/differs from zod/);
  });

  it('falls back to zod for schemas whose encoded output can differ from the value', () => {
    const cases: [Schema, unknown, string][] = [
      [z.object({ name: z.string().trim() }), { name: '  ana  ' }, '{"name":"ana"}'],
      [z.object({ email: z.string().toLowerCase() }), { email: 'A@B.C' }, '{"email":"a@b.c"}'],
      [
        z.object({
          at: z.codec(z.iso.datetime(), z.date(), {
            decode: (s) => new Date(s),
            encode: (d) => d.toISOString(),
          }),
        }),
        { at: new Date(Date.UTC(2026, 0, 2)) },
        '{"at":"2026-01-02T00:00:00.000Z"}',
      ],
      [z.strictObject({ a: z.string() }), { a: 'x' }, '{"a":"x"}'],
      [z.looseObject({ a: z.string() }), { a: 'x', b: 1 }, '{"a":"x","b":1}'],
      [z.object({ v: z.union([z.string(), z.number()]) }), { v: 1 }, '{"v":1}'],
      [z.object({ v: z.any() }), { v: { deep: [1] } }, '{"v":{"deep":[1]}}'],
      [z.object({ n: z.string().refine((s) => s.length > 0) }), { n: 'x' }, '{"n":"x"}'],
      [z.object({ n: z.number().default(3) }), { n: 4 }, '{"n":4}'],
      [z.object({ tags: z.array(z.string().optional()) }), { tags: ['a'] }, '{"tags":["a"]}'],
    ];
    for (const [schema, data, json] of cases) {
      const compiled = compileResponseSerializer(schema);
      expect(compiled.fast, JSON.stringify(json)).toBe(false);
      expect(compiled.serialize(data)).toBe(json);
    }
    expect(() => toSerializerSchema(z.object({ d: z.date() }))).toThrow(/\$\.d: date/);
  });

  it('checks each answer against zod when verifying, and trusts the handler otherwise', () => {
    const route = { schema: routes.connectAccountCallback.response, method: 'POST', url: '/x' };
    const invalid = { message: 'ok', chargesEnabled: 'yes' };
    const verified = createResponseSerializerCompiler({ verify: true })(route);
    expect(() => verified(invalid)).toThrow(/doesn't match the schema/);
    expect(verified({ message: 'ok', chargesEnabled: true, leak: LEAK })).toBe(
      '{"message":"ok","chargesEnabled":true}',
    );
    const trusted = createResponseSerializerCompiler({ verify: false })(route);
    expect(trusted).toBe(compileResponseSerializer(route.schema).serialize);
  });
});

describe('serialisation through the app', () => {
  let t: TestApp;
  // A contract response schema on test-only paths, answered by handlers that spread too much.
  const leakyProfile: RouteDef = {
    ...routes.getProfile,
    path: '/test/leaky-profile',
    auth: 'none',
  };
  const invalidAnswer: RouteDef = {
    ...routes.connectAccountCallback,
    path: '/test/invalid-answer',
    auth: 'none',
  };
  let userId = '';

  beforeAll(async () => {
    t = await startTestApp(
      {},
      {
        beforeReady(app) {
          registerRoute(app, leakyProfile, async ({ req }) => {
            const row = (await findUserById(req.server.deps.database.db, userId))!;
            // The mistake the serialiser guards against: a whole row spread into the answer.
            return { user: { ...row, ...presentUser(row, req.server.deps.storage) }, row } as never;
          });
          registerRoute(
            app,
            invalidAnswer,
            () => ({ message: 'ok', chargesEnabled: 'yes' }) as never,
          );
          app.get(
            '/test/leaky-error',
            { schema: { response: { '4XX': apiErrorSchema } } },
            async (_req, reply) =>
              reply.status(409).send({ error: 'Taken.', code: 'conflict', stack: `at ${LEAK}` }),
          );
        },
      },
    );
    userId = (await createUser(t, { username: 'ana' })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes only the declared fields of a response', async () => {
    expect(compileResponseSerializer(routes.getProfile.response).fast).toBe(true);
    const res = await t.call(leakyProfile);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('passwordHash');
    expect(res.body).not.toContain('argon2');
    expect(Object.keys(res.json())).toEqual(['user']);
    expect(Object.keys(res.json().user).sort()).toEqual(
      [
        'avatar',
        'avatarUrl',
        'createdAt',
        'email',
        'emailVerified',
        'id',
        'roles',
        'username',
      ].sort(),
    );
    expect(res.json().user).toMatchObject({ id: userId, username: 'ana', roles: ['buyer'] });
  });

  it('writes only the declared fields of an error body', async () => {
    const res = await t.app.inject('/test/leaky-error');
    expect(res.statusCode).toBe(409);
    expect(res.body).toBe('{"error":"Taken.","code":"conflict"}');
  });

  it('still rejects an answer zod rejects while tests run (NODE_ENV=test verifies)', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const res = await t.call(invalidAnswer);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'internal' });
  });
});
