/**
 * Response serialisers compiled once per schema (ADR 017). A response's zod schema becomes a small JSON
 * Schema that `fast-json-stringify` turns into straight-line code: it writes only the declared
 * properties, as zod's encode + `JSON.stringify` did, without building an intermediate object. Schemas
 * whose encoded output could differ from their input (transforms, codecs, pipes, defaults, overwriting
 * checks such as `.trim()`, refinements, unions, any/unknown …) keep the zod serialiser.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

type ZodSchema = z.core.$ZodType;
type JsonSchema = { [keyword: string]: unknown };
type Serialize = (data: unknown) => string;

/** Tests and development also encode every answer with zod and fail on any difference (ADR 017). */
export const verifyResponses =
  process.env.NODE_ENV === 'test' || process.env.NODE_ENV === 'development';

export type CompiledSerializer =
  | { fast: true; jsonSchema: JsonSchema; serialize: Serialize }
  | { fast: false; reason: string; serialize: Serialize };

/** Checks that only accept or reject a value; anything else (`overwrite`, `custom` …) may change it. */
const VALIDATION_ONLY_CHECKS = new Set([
  'less_than',
  'greater_than',
  'multiple_of',
  'number_format',
  'max_length',
  'min_length',
  'length_equals',
  'string_format',
]);

/**
 * zod's records drop an own `__proto__` key (JSON.parse makes one); a pattern that every other key
 * matches, with no `additionalProperties`, makes the compiled code drop it too.
 */
const RECORD_KEY_PATTERN = '^(?!__proto__$)';

class Unconvertible extends Error {}

function assertValidationOnly(schema: ZodSchema, at: string): void {
  const def = schema._zod.def as { check?: string; checks?: z.core.$ZodCheck[] };
  // String formats (`z.email()` …) are their own check.
  if (def.check !== undefined && !VALIDATION_ONLY_CHECKS.has(def.check)) {
    throw new Unconvertible(`${at}: "${def.check}" check`);
  }
  for (const check of def.checks ?? []) {
    const kind = check._zod.def.check;
    if (!VALIDATION_ONLY_CHECKS.has(kind)) throw new Unconvertible(`${at}: "${kind}" check`);
  }
}

/**
 * The JSON Schema `fast-json-stringify` needs to write what zod's encode would: types and structure
 * only. Validation keywords are left out on purpose (`format: 'date-time'` would make it accept Date
 * objects, `const` would make it write the constant whatever the value); it throws `Unconvertible`
 * for anything it cannot reproduce exactly.
 */
export function toSerializerSchema(schema: ZodSchema, at = '$'): JsonSchema {
  assertValidationOnly(schema, at);
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
      if ((def as { coerce?: boolean }).coerce)
        throw new Unconvertible(`${at}: coerced ${def.type}`);
      return { type: def.type };
    case 'enum': {
      const values = Object.values((def as z.core.$ZodEnumDef).entries);
      if (values.every((v) => typeof v === 'string')) return { type: 'string' };
      throw new Unconvertible(`${at}: enum with non-string values`);
    }
    case 'literal': {
      const values = (def as z.core.$ZodLiteralDef<z.core.util.Literal>).values;
      for (const type of ['string', 'boolean'] as const) {
        if (values.every((v) => typeof v === type)) return { type };
      }
      if (values.every((v) => typeof v === 'number' && Number.isFinite(v)))
        return { type: 'number' };
      throw new Unconvertible(`${at}: literal ${String(values[0])}`);
    }
    case 'nullable': {
      const inner = toSerializerSchema((def as z.core.$ZodNullableDef).innerType, at);
      return { ...inner, nullable: true };
    }
    case 'array':
      return {
        type: 'array',
        items: toSerializerSchema((def as z.core.$ZodArrayDef).element, `${at}[]`),
      };
    case 'object': {
      const { shape, catchall } = def as z.core.$ZodObjectDef;
      // Strict and loose objects reject or pass through unknown keys; only stripping is reproduced.
      if (catchall) throw new Unconvertible(`${at}: object with catchall`);
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(shape)) {
        let prop: ZodSchema = value;
        let optional = false;
        // Optional only at the top of a property: that is where zod lets the key be absent.
        while (prop._zod.def.type === 'optional') {
          assertValidationOnly(prop, `${at}.${key}`);
          prop = (prop._zod.def as z.core.$ZodOptionalDef).innerType;
          optional = true;
        }
        properties[key] = toSerializerSchema(prop, `${at}.${key}`);
        if (!optional) required.push(key);
      }
      return { type: 'object', properties, required };
    }
    case 'record': {
      const { keyType, valueType, mode } = def as z.core.$ZodRecordDef;
      const keyDef = keyType._zod.def as { type: string; checks?: unknown[]; coerce?: boolean };
      if (keyDef.type !== 'string' || keyDef.checks?.length || keyDef.coerce || mode === 'loose') {
        throw new Unconvertible(`${at}: record keys other than z.string()`);
      }
      assertValidationOnly(keyType, `${at}{key}`);
      return {
        type: 'object',
        patternProperties: { [RECORD_KEY_PATTERN]: toSerializerSchema(valueType, `${at}{}`) },
      };
    }
    default:
      throw new Unconvertible(`${at}: ${def.type}`);
  }
}

/**
 * A discriminated union of objects (the login's session or challenge): each option compiled, the one
 * written chosen by the discriminator's value. Other unions keep zod's serialiser.
 */
function discriminatedSerializer(schema: ZodSchema): CompiledSerializer | null {
  const def = schema._zod.def as { type: string; discriminator?: string; options?: ZodSchema[] };
  if (def.type !== 'union' || !def.discriminator || !def.options) return null;
  assertValidationOnly(schema, '$');
  const key = def.discriminator;
  const byValue = new Map<unknown, Serialize>();
  const options: JsonSchema[] = [];
  for (const [i, option] of def.options.entries()) {
    const jsonSchema = toSerializerSchema(option, `$|${i}`);
    const shape = (option._zod.def as Partial<z.core.$ZodObjectDef>).shape;
    const tag = shape?.[key]?._zod.def as Partial<z.core.$ZodLiteralDef<z.core.util.Literal>>;
    if (!tag?.values) throw new Unconvertible(`$|${i}.${key}: not a literal`);
    const serialize = fastJson(jsonSchema) as Serialize;
    for (const value of tag.values) byValue.set(value, serialize);
    options.push(jsonSchema);
  }
  return {
    fast: true,
    jsonSchema: { anyOf: options },
    serialize: (data) => {
      const serialize = byValue.get((data as Record<string, unknown> | null)?.[key]);
      if (!serialize)
        throw new Error(`No union option has ${key} = ${String((data as never)?.[key])}`);
      return serialize(data);
    },
  };
}

function zodSerialize(schema: ZodSchema, method: string, url: string): Serialize {
  return (data) => {
    const result = z.safeEncode(schema, data as never);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}

// Schema objects are shared (every route's 4XX/5XX is apiErrorSchema): compile each one once.
const compiled = new WeakMap<ZodSchema, CompiledSerializer>();

/** The serialiser for one response schema: compiled when it converts, zod's otherwise. */
export function compileResponseSerializer(
  schema: ZodSchema,
  route: { method: string; url: string } = { method: '', url: '' },
): CompiledSerializer {
  const hit = compiled.get(schema);
  if (hit) return hit;
  let result: CompiledSerializer;
  try {
    result = discriminatedSerializer(schema) ?? {
      fast: true,
      jsonSchema: toSerializerSchema(schema),
      serialize: fastJson(toSerializerSchema(schema)) as Serialize,
    };
  } catch (err) {
    if (!(err instanceof Unconvertible)) throw err;
    result = {
      fast: false,
      reason: err.message,
      serialize: zodSerialize(schema, route.method, route.url),
    };
  }
  compiled.set(schema, result);
  return result;
}

/** fastify-type-provider-zod's own unwrapping: Fastify may hand over `{ properties: schema }`. */
function zodSchemaOf(schema: unknown): ZodSchema {
  if (schema instanceof z.core.$ZodType) return schema;
  const wrapped = (schema as { properties?: unknown } | null)?.properties;
  if (wrapped instanceof z.core.$ZodType) return wrapped;
  throw new Error(`Response schema is not a zod schema: ${JSON.stringify(schema)}`);
}

/**
 * Fastify's serializer compiler. With `verify` (tests, development) every compiled answer is also
 * encoded by zod: a value zod rejects still fails as it did, and any difference between the two
 * outputs throws, so the whole test suite checks the compiled path.
 */
export function createResponseSerializerCompiler(options: {
  verify: boolean;
}): FastifySerializerCompiler<unknown> {
  return ({ schema: raw, method, url, httpStatus }) => {
    const schema = zodSchemaOf(raw);
    const compiledOne = compileResponseSerializer(schema, { method, url });
    if (!compiledOne.fast) return zodSerialize(schema, method, url);
    const fast = compiledOne.serialize;
    if (!options.verify) return fast;
    return (data) => {
      const encoded = z.safeEncode(schema, data as never);
      if (!encoded.success) {
        throw new ResponseSerializationError(method, url, { cause: encoded.error });
      }
      const json = fast(data);
      if (!isDeepStrictEqual(JSON.parse(json), JSON.parse(JSON.stringify(encoded.data)))) {
        throw new Error(
          `Compiled response serialiser for ${method} ${url} (${httpStatus}) disagrees with zod: ${json}`,
        );
      }
      return json;
    };
  };
}
