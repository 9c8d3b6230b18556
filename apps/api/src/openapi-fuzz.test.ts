import {
  apiErrorSchema,
  authRoutes,
  discordRoutes,
  routes,
  type RouteDef,
} from '@tradeshelf/contract';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBundle, createProduct, createVendor } from '../test/factories/catalog.ts';
import { createUser, userToken } from '../test/factories/users.ts';
import { FORGED_CURSORS, UNSTORABLE_TIMES } from '../test/cursors.ts';
import { nextIp, startTestApp, type TestApp } from '../test/harness.ts';
import { RawConnection, requestHead, within } from '../test/http.ts';
import { discordOverHttp } from '../test/discord.ts';
import { signUnsubscribe } from './modules/deliverables/tokens.ts';

/**
 * Fuzzes every operation `/openapi.json` publishes (issue 13). Each operation gets clean requests
 * (they must reach the service), then every field of it (path and query parameters, each JSON body
 * field at any depth, the body as a whole, the headers) is broken in every way in turn, one at a
 * time so validation of another field cannot hide it: NUL, lone surrogates, control characters,
 * invalid UTF-8 escapes, wrong types, huge and empty values, missing, duplicated and extra fields;
 * each date-time field every time PostgreSQL refuses (year 0000, 10000, offsets past ±15:59) and
 * each `cursor` every forged cursor (issue 26); then random mixes of those. Requests go with a
 * valid bearer token (of a user who is also a vendor), without one, or with a bad one.
 *
 * No answer may be a 5xx or take long; every non-2xx body has the contract's error shape; every 2xx
 * body parses with the route's response schema. fast-check draws the values with fixed seeds, so a
 * failure reproduces; each problem is reported once per operation with the request that showed it.
 */

const CLEAN_RUNS = 16;
const MIXED_RUNS = 16;
const PROBES_PER_PLACE = 1;
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_313);
// A hang, not a slow machine: a worker's first picture upload once took over 10 s on a loaded
// 2-core machine (sharp's first pipeline on the embedded database beside the browser suite).
const ANSWER_WITHIN_MS = 30_000;

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
};

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ in: string; name: string; schema: JsonSchema }>;
  body: JsonSchema | null;
  route: RouteDef | undefined;
}

// A valid 2×2 PNG (the pipeline decodes every upload whole).
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d494844520000000200000002080600000072b60d240000000970485973000003e8000003e801b57b526b0000001149444154789c63d0bdb2ff3f0833c018005e2c0afd529e399e0000000049454e44ae426082',
  'hex',
);

// The operations are read from the app itself before the tests are declared: one test each.
const t: TestApp = await startTestApp();
// A real server too: the edge probe speaks raw HTTP to it, and the Discord sandbox answers the
// app's Discord calls over it (as in the access module's tests), so those operations reach it.
const base = await discordOverHttp(t);
const port = Number(new URL(base).port);
afterAll(async () => {
  await t.deps.chat.close();
  await t.close();
});
const doc = (await t.app.inject('/openapi.json')).json() as {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, JsonSchema> };
};
const operations: Operation[] = [];
{
  const byKey = new Map(Object.values(routes).map((r) => [`${r.method} ${r.path}`, r as RouteDef]));
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(ops)) {
      const op = raw as {
        parameters?: Operation['parameters'];
        requestBody?: { content?: Record<string, { schema: JsonSchema }> };
      };
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        route: byKey.get(`${method.toUpperCase()} ${path}`),
      });
    }
  }
}

const tokens = { access: '', refresh: '' };
/** Mints the access token each operation starts with: one an earlier logout did not end. */
let signIn: () => Promise<string> = async () => '';
/** Real values by field name, so clean requests get past validation into the services. */
const hints: Record<string, string[]> = {};

beforeAll(async () => {
  // A buyer who also sells: vendor operations reach their services (and their cursors) too.
  const user = await createUser(t, { roles: ['buyer', 'vendor'] });
  const login = await t.call(authRoutes.login, {
    body: { email: user.email, password: user.password },
  });
  tokens.access = login.json().token;
  tokens.refresh = login.json().refreshToken;
  signIn = () => userToken(t, user, ['buyer', 'vendor']);
  const vendor = await createVendor(t, { userId: user.id });
  const product = await createProduct(t, vendor.id, { tags: ['rsi'], extraPrices: [900] });
  const bundle = await createBundle(t, vendor.id, [product.id]);
  // Single-use Discord install states, so the install's return gets past its state check.
  const states: string[] = [];
  for (let i = 0; i < 8; i++) {
    const install = await t.call(discordRoutes.vendorDiscordInstall, { token: tokens.access });
    states.push(new URL(install.json().url, 'http://x').searchParams.get('state') ?? '');
  }
  Object.assign(hints, {
    email: [user.email, 'nobody@example.com'],
    password: [user.password, 'correct-horse-43'],
    currentPassword: [user.password],
    newPassword: ['another-horse-77'],
    username: ['fuzz_user1', 'Fuzz_Two'],
    code: ['123456'],
    refresh_token: [tokens.refresh],
    user_id: [user.id],
    id: [product.id, bundle.id],
    productId: [product.id],
    priceId: [product.priceId],
    bundleId: [bundle.id],
    vendorUrl: [vendor.vendorUrl],
    anonymousId: ['anon-12345678'],
    userId: [user.id],
    path: ['/p/x'],
    q: ['rsi', 'product'],
    // Well-formed licence keys and fingerprints: clean calls reach the licence API's lookups.
    key: ['TS-7K2QF-9MXWD-4HB8R-ZT3NC', '7k2qf9mxwd4hb8rzt3nc'],
    fingerprint: ['50012345', 'workstation-7f3a9c'],
    name: ['Trading desktop'],
    // Reviews: the product a review is about, and text long enough to pass.
    product: [product.id],
    state: states,
    text: ['Clean signals on the hourly chart, no repainting.'],
    // An alert's symbol and price, so a clean alert reaches the publish (issue 31).
    symbol: ['NASDAQ:AAPL'],
    price: ['131.25'],
    // A thinkorswim shared-item link, so a clean link version reaches its service; a public
    // address written as one, so a webhook endpoint passes its check with no DNS (CI has none).
    url: ['https://tos.mx/fuzz123', 'https://1.1.1.1/fuzz-hook'],
    // A real new-version unsubscribe link's token, so a clean call reaches the opt-out.
    token: [signUnsubscribe(t.config.STORAGE_SECRET, user.id, product.id)],
  });
});

// ---------------------------------------------------------------------------------------------
// Values that fit a schema

function resolve(schema: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop()!] ?? {});
}

function valueFor(raw: JsonSchema, name = '', depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(raw);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const choices = s.anyOf ?? s.oneOf;
  if (choices) return fc.oneof(...choices.map((c) => valueFor(c, name, depth + 1)));
  if (s.allOf?.[0]) return valueFor(s.allOf[0], name, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'string':
      return stringFor(s, name);
    case 'integer':
    case 'number':
      return fc.integer({ min: s.minimum ?? -1_000, max: Math.min(s.maximum ?? 1_000_000, 1e9) });
    case 'boolean':
      return fc.boolean();
    // A nullable field's null branch (`anyOf: [..., { type: 'null' }]`): null is its clean value.
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(s.items ?? {}, name, depth + 1), {
        minLength: Math.min(s.minItems ?? 0, 2),
        maxLength: Math.min(s.maxItems ?? 2, 2),
      });
    case 'object': {
      if (depth > 4 || !s.properties) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(s.properties)) model[k] = valueFor(v, k, depth + 1);
      return fc.record(model, { requiredKeys: s.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringFor(s: JsonSchema, name: string): fc.Arbitrary<string> {
  const max = Math.min(s.maxLength ?? 40, 40);
  let shaped: fc.Arbitrary<string>;
  if (s.format === 'date-time')
    shaped = fc
      .date({ min: new Date(2000, 0, 1), max: new Date(2100, 0, 1), noInvalidDate: true })
      .map((d) => d.toISOString());
  // Recent days, so a clean range (from ≤ to, at most two years) often gets past validation.
  else if (isDay(s))
    shaped = fc
      .date({ min: new Date('2025-01-01'), max: new Date('2026-11-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  else if (s.pattern)
    shaped = fc.stringMatching(new RegExp(s.pattern)).map((x) => x.slice(0, s.maxLength ?? 200));
  else shaped = fc.string({ minLength: Math.min(s.minLength ?? 0, max), maxLength: max });
  const known = hints[name];
  return known?.length
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...known) },
        { weight: 1, arbitrary: shaped },
      )
    : shaped;
}

// ---------------------------------------------------------------------------------------------
// Broken values

/** Written into the URL as they are: invalid UTF-8 (overlong, surrogate halves) and bad escapes. */
const RAW_ESCAPES = ['%C0%80', '%ED%A0%80', '%FF', '%E2%82', '%', '%zz', '%0', '%00', '%25%00'];

const around = (inner: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.string({ maxLength: 4 }), inner, fc.string({ maxLength: 4 }))
    .map(([a, b, c]) => a + b + c);

const withNul = around(fc.constantFrom('\u0000', '\u0000\u0000'));
const withSurrogate = around(fc.constantFrom('\ud800', '\udfff', '\ud83d', '\ude00'));
const withControl = around(
  fc
    .array(fc.integer({ min: 1, max: 31 }), { minLength: 1, maxLength: 3 })
    .map((codes) => String.fromCharCode(...codes) + '\u007f\u0085'),
);
const huge = (max: number) => fc.integer({ min: 90, max }).map((n) => 'x'.repeat(n));
const wrongJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);
const wrongText = fc.oneof(
  fc.constantFrom('-1', '0', '1e309', 'NaN', 'true', 'null', '[]', '{}', '../..', "' or 1=1 --"),
  // Dates a lenient parser takes and a database may not.
  fc.constantFrom('0000-01-01T00:00:00Z', '2024-02-30T00:00:00Z', '+275760-09-13T00:00:00Z'),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** Times PostgreSQL's timestamptz refuses or the contract bounds out (issue 26), each tried. */
const BAD_TIMES = [
  ...UNSTORABLE_TIMES,
  '10000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '2026-01-01T00:00:00+23:59',
  '2024-02-30T00:00:00Z',
  '1969-12-31T23:59:59Z',
];
/** Days at and past the ends of the years a timestamp may have, for `YYYY-MM-DD` parameters. */
const EDGE_DAYS = ['0000-01-01', '0001-01-01', '1969-12-31', '1970-01-01', '9999-12-31'];
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
/** Cursors made by hand: the fixed list, then drawn ones in the old unsigned shapes. */
const forgedCursor = fc
  .tuple(
    fc.constantFrom(...BAD_TIMES, '2026-01-01T00:00:00Z'),
    fc.string({ maxLength: 8 }),
    fc.constantFrom('json', 'pipe', 'sort', 'offset'),
  )
  .map(([at, id, shape]) =>
    shape === 'json'
      ? b64(JSON.stringify([at, id]))
      : shape === 'pipe'
        ? b64(`${at}|${id}`)
        : shape === 'sort'
          ? b64(JSON.stringify(['newest', id || at]))
          : b64(`text:${id.length * 20}`),
  );

/** Not JSON, not UTF-8, too deep, too big, or said to be something else. */
const RAW_BODIES: Array<[string, string | Buffer]> = [
  ['application/json', ''],
  ['application/json', '{'],
  ['application/json', '{"a":'],
  ['application/json', 'null'],
  ['application/json', '\u0000'],
  ['application/json', '{"__proto__":{"admin":true}}'],
  ['application/json', '{"constructor":{"prototype":{"admin":true}}}'],
  // {"a":"<overlong NUL>"}
  ['application/json', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0x22, 0x7d])],
  ['application/json', '['.repeat(20_000) + ']'.repeat(20_000)],
  ['application/json', JSON.stringify({ big: 'x'.repeat(300 * 1024) })],
  ['application/json; charset=utf-16', '{}'],
  ['text/plain', '{"productId":"x"}'],
  ['application/x-www-form-urlencoded', 'a=1&b=2'],
  ['application/xml', '<a/>'],
  ['multipart/form-data', ''],
];

function multipartOf(
  parts: Array<{ name: string; filename: string | null; type: string; data: Buffer }>,
  boundary: string,
): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      `form-data; name="${p.name}"` + (p.filename === null ? '' : `; filename="${p.filename}"`);
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
          (p.type ? `Content-Type: ${p.type}\r\n` : '') +
          '\r\n',
      ),
      p.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const pngUpload: Body = {
  type: 'multipart/form-data; boundary=b0undary',
  raw: multipartOf([{ name: 'file', filename: 'a.png', type: 'image/png', data: PNG }], 'b0undary'),
};

const brokenMultipart: fc.Arbitrary<Body> = fc
  .record({
    parts: fc.array(
      fc.record({
        name: fc.constantFrom('file', 'other', '', 'file[]', 'a\u0000', '__proto__'),
        filename: fc.option(fc.constantFrom('a.png', '', '../x.png', 'a\u0000.png', 'ü.png')),
        type: fc.constantFrom('image/png', 'text/plain', 'application/octet-stream', ''),
        data: fc.oneof(
          fc.constant(PNG),
          fc.uint8Array({ maxLength: 2_000 }).map((a) => Buffer.from(a)),
          fc.constant(Buffer.alloc(2 * 1024 * 1024 + 10, 1)),
        ),
      }),
      { maxLength: 3 },
    ),
    boundary: fc.constantFrom('b0undary', 'x', '', 'a b', 'a'.repeat(100)),
    declared: fc.constantFrom('same', 'missing', 'other'),
    cut: fc.option(fc.nat({ max: 400 })),
  })
  .map(({ parts, boundary, declared, cut }) => {
    let raw = multipartOf(parts, boundary);
    if (cut !== null) raw = raw.subarray(0, Math.max(0, raw.length - cut));
    const type =
      declared === 'missing'
        ? 'multipart/form-data'
        : `multipart/form-data; boundary=${declared === 'same' ? boundary : 'other'}`;
    return { type, raw };
  });

// ---------------------------------------------------------------------------------------------
// Requests: a clean draft, then mutations of one target each

type UrlValue = { text: string } | { raw: string };
type Body = { json: unknown } | { type: string; raw: string | Buffer } | null;
type Auth = 'none' | 'access' | 'refresh' | 'garbage' | 'scheme';

interface Draft {
  params: Record<string, UrlValue>;
  query: Array<[string, UrlValue | null]>;
  body: Body;
  auth: Auth;
  idempotencyKey: string | null;
}

/** Percent-encodes UTF-8 bytes (a lone surrogate goes as U+FFFD, as any client would send it). */
const pct = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : '%' + b.toString(16).toUpperCase().padStart(2, '0'),
    )
    .join('');
const enc = (v: UrlValue) => ('raw' in v ? v.raw : pct(v.text));
/** A value as a URL carries it: strings as they are, anything else as JSON. */
const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function cleanDraft(op: Operation): fc.Arbitrary<Draft> {
  const url = (p: Operation['parameters'][number]) =>
    valueFor(p.schema, p.name).map((v): UrlValue => ({ text: text(v) }));
  const path = op.parameters.filter((p) => p.in === 'path');
  const query = op.parameters.filter((p) => p.in === 'query');
  return fc.record({
    params: fc
      .tuple(...path.map(url))
      .map((vs) => Object.fromEntries(path.map((p, i) => [p.name, vs[i]!]))),
    query: fc
      .tuple(...query.map((p) => fc.option(url(p))))
      .map((vs) =>
        query.flatMap((p, i): Array<[string, UrlValue]> => (vs[i] ? [[p.name, vs[i]]] : [])),
      ),
    body: op.route?.multipart
      ? fc.constant(pngUpload)
      : op.body
        ? valueFor(op.body).map((json): Body => ({ json }))
        : fc.constant(null),
    auth: fc.constantFrom<Auth>('access', 'access', 'access', 'none'),
    idempotencyKey: fc.option(fc.uuid(), { nil: null }),
  });
}

type Mutate = (d: Draft) => void;
interface Target {
  where: 'path' | 'query' | 'body' | 'request';
  name: string;
  /** For body fields: the keys down to it (`0` for an array's first item). */
  keys: string[];
  /** The schema's `format` (`date-time` fields also get every bad time). */
  format?: string | undefined;
  /** A `YYYY-MM-DD` query parameter (every such parameter of the operation gets each edge day). */
  day?: boolean;
}

const isDay = (schema: JsonSchema) => resolve(schema).pattern?.startsWith('^\\d{4}-') === true;

/** A schema's format, looking through a nullable or optional wrapper. */
function formatOf(schema: JsonSchema): string | undefined {
  const s = resolve(schema);
  return s.format ?? (s.anyOf ?? s.oneOf)?.map(formatOf).find(Boolean);
}

function bodyTargets(schema: JsonSchema, keys: string[] = [], depth = 0): Target[] {
  const s = resolve(schema);
  const here: Target[] = keys.length
    ? [{ where: 'body', name: keys.join('.'), keys, format: formatOf(s) }]
    : [];
  if (depth > 5) return here;
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    const all = variants.flatMap((v) => bodyTargets(v, keys, depth + 1));
    const seen = new Set(here.map((x) => x.name));
    return [...here, ...all.filter((x) => !seen.has(x.name) && seen.add(x.name))];
  }
  if (s.properties)
    return [
      ...here,
      ...Object.entries(s.properties).flatMap(([k, v]) => bodyTargets(v, [...keys, k], depth + 1)),
    ];
  if (s.items) return [...here, ...bodyTargets(s.items, [...keys, '0'], depth + 1)];
  return here;
}

function targetsOf(op: Operation): Target[] {
  return [
    ...op.parameters
      .filter((p) => p.in === 'path' || p.in === 'query')
      .map((p): Target => ({
        where: p.in as 'path' | 'query',
        name: p.name,
        keys: [],
        format: formatOf(p.schema),
        day: isDay(p.schema),
      })),
    ...(op.body ? bodyTargets(op.body) : []),
    { where: 'request', name: 'body', keys: [] },
    { where: 'request', name: 'authorization', keys: [] },
    { where: 'request', name: 'idempotency-key', keys: [] },
    { where: 'request', name: 'extra query', keys: [] },
  ];
}

/** Follows `keys` into a JSON body, making objects on the way; the parent and the last key. */
function parentOf(d: Draft, keys: string[]): [Record<string, unknown>, string] {
  if (d.body === null || !('json' in d.body) || typeof d.body.json !== 'object' || !d.body.json)
    d.body = { json: {} };
  let node = d.body.json as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) {
    if (typeof node[k] !== 'object' || node[k] === null) node[k] = k === '0' ? [] : {};
    node = node[k] as Record<string, unknown>;
  }
  return [node, keys.at(-1)!];
}

const URL_KINDS = [
  'nul',
  'control',
  'escape',
  'huge',
  'empty',
  'wrong',
  'missing',
  'twice',
  'bare',
];
const BODY_KINDS = ['nul', 'surrogate', 'control', 'huge', 'empty', 'wrong', 'missing', 'extra'];

function kindsFor(target: Target): string[] {
  // Exhaustive where it matters (issue 26): every bad time in a date-time field, every forged cursor.
  const times = target.format === 'date-time' ? BAD_TIMES.map((_, i) => `time ${i}`) : [];
  const days = target.day ? EDGE_DAYS.map((_, i) => `day ${i}`) : [];
  const cursors =
    target.where === 'query' && target.name === 'cursor'
      ? [...FORGED_CURSORS.map((_, i) => `forged ${i}`), 'forged drawn', 'forged drawn']
      : [];
  if (target.where === 'body') return [...BODY_KINDS, ...times];
  if (target.where === 'request') return ['any'];
  return [
    ...(target.where === 'path' ? URL_KINDS.slice(0, 6) : URL_KINDS),
    ...times,
    ...days,
    ...cursors,
  ];
}

/** One way of breaking one target. */
function mutation(op: Operation, target: Target, kind: string): fc.Arbitrary<Mutate> {
  const broken = mutationOf(op, target, kind);
  // Bad times and forged cursors probe what a service parses: signed in, they get past the door.
  return /^(time|forged|day) /.test(kind)
    ? broken.map((m) => (d: Draft) => {
        m(d);
        d.auth = 'access';
      })
    : broken;
}

function mutationOf(op: Operation, target: Target, kind: string): fc.Arbitrary<Mutate> {
  if (target.where === 'request') {
    switch (target.name) {
      case 'body':
        return (
          op.route?.multipart
            ? brokenMultipart
            : fc.oneof(
                fc.constantFrom(...RAW_BODIES).map(([type, raw]): Body => ({ type, raw })),
                fc.oneof(wrongJson, withNul, withSurrogate).map((json): Body => ({ json })),
              )
        ).map((body) => (d: Draft) => void (d.body = body));
      case 'authorization':
        return fc
          .constantFrom<Auth>('none', 'refresh', 'garbage', 'scheme')
          .map((auth) => (d: Draft) => void (d.auth = auth));
      case 'idempotency-key':
        return fc
          .oneof(withNul.map(pct), withControl.map(pct), huge(5_000), fc.constant(''))
          .map((key) => (d: Draft) => void (d.idempotencyKey = key));
      default:
        return fc
          .tuple(fc.oneof(withNul, wrongText), fc.oneof(withNul, withControl, wrongText))
          .map(
            ([k, v]) =>
              (d: Draft) =>
                void d.query.push([k || 'k', { text: v }]),
          );
    }
  }
  if (target.where === 'body') {
    const set = (value: fc.Arbitrary<unknown>) =>
      value.map((v) => (d: Draft) => {
        const [parent, key] = parentOf(d, target.keys);
        parent[key] = v;
      });
    if (kind.startsWith('time ')) return set(fc.constant(BAD_TIMES[Number(kind.slice(5))]));
    switch (kind) {
      case 'nul':
        return set(withNul);
      case 'surrogate':
        return set(withSurrogate);
      case 'control':
        return set(withControl);
      case 'huge':
        return set(huge(70_000));
      case 'empty':
        return set(fc.constantFrom('', [], {}));
      case 'wrong':
        return set(fc.oneof(wrongJson, wrongText));
      case 'missing':
        return fc.constant((d: Draft) => {
          const [parent, key] = parentOf(d, target.keys);
          delete parent[key];
        });
      default:
        return fc.tuple(fc.string({ maxLength: 8 }), wrongJson).map(([k, v]) => (d: Draft) => {
          const [parent, key] = parentOf(d, target.keys);
          parent[`${key}${k}_extra`] = v;
        });
    }
  }
  // A path or query parameter.
  const value: fc.Arbitrary<UrlValue | null> | null = kind.startsWith('time ')
    ? fc.constant({ text: BAD_TIMES[Number(kind.slice(5))]! })
    : kind === 'forged drawn'
      ? forgedCursor.map((text) => ({ text }))
      : kind.startsWith('forged ')
        ? fc.constant({ text: FORGED_CURSORS[Number(kind.slice(7))]! })
        : kind === 'nul'
          ? withNul.map((s) => ({ text: s }))
          : kind === 'control'
            ? withControl.map((s) => ({ text: s }))
            : kind === 'escape'
              ? around(fc.constantFrom(...RAW_ESCAPES)).map((s) => ({
                  raw: pct(s).replace(/%25/g, '%'),
                }))
              : kind === 'huge'
                ? huge(target.where === 'path' ? 3_000 : 70_000).map((s) => ({ text: s }))
                : kind === 'empty'
                  ? fc.constant({ text: '' })
                  : kind === 'wrong'
                    ? wrongText.map((s) => ({ text: s }))
                    : kind === 'bare'
                      ? fc.constant(null)
                      : null;
  if (target.where === 'path')
    return value!.map((v) => (d: Draft) => void (d.params[target.name] = v ?? { text: '' }));
  const drop = (d: Draft) => (d.query = d.query.filter(([k]) => k !== target.name));
  if (kind.startsWith('day ')) {
    // Both ends of a range at once: a range at the last day there is must still answer, promptly.
    const day = EDGE_DAYS[Number(kind.slice(4))]!;
    const names = op.parameters
      .filter((p) => p.in === 'query' && isDay(p.schema))
      .map((p) => p.name);
    return fc.constant((d: Draft) => {
      d.query = d.query.filter(([k]) => !names.includes(k));
      for (const n of names) d.query.push([n, { text: day }]);
    });
  }
  if (kind === 'missing') return fc.constant(drop);
  if (kind === 'twice')
    return fc.tuple(wrongText, fc.oneof(withNul, wrongText)).map(([a, b]) => (d: Draft) => {
      drop(d);
      d.query.push([target.name, { text: a }], [target.name, { text: b }]);
    });
  return value!.map((v) => (d: Draft) => {
    drop(d);
    d.query.push([target.name, v]);
  });
}

interface FuzzRequest {
  url: string;
  method: NonNullable<InjectOptions['method']>;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

function serialize(op: Operation, d: Draft): FuzzRequest {
  const path = op.path.replace(/\{(\w+)\}/g, (_, n: string) => enc(d.params[n] ?? { text: '' }));
  const qs = d.query.map(([k, v]) => (v === null ? pct(k) : `${pct(k)}=${enc(v)}`)).join('&');
  const headers: Record<string, string> = {};
  if (d.auth === 'access') headers.authorization = `Bearer ${tokens.access}`;
  if (d.auth === 'refresh') headers.authorization = `Bearer ${tokens.refresh}`;
  if (d.auth === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.e30.';
  if (d.auth === 'scheme') headers.authorization = `Basic ${tokens.access}`;
  if (d.idempotencyKey !== null) headers['idempotency-key'] = d.idempotencyKey;
  const request: FuzzRequest = {
    method: op.method as FuzzRequest['method'],
    url: qs ? `${path}?${qs}` : path,
    headers,
  };
  if (d.body && 'json' in d.body) {
    headers['content-type'] = 'application/json';
    request.payload = JSON.stringify(d.body.json) ?? 'null';
  } else if (d.body) {
    headers['content-type'] = d.body.type;
    request.payload = d.body.raw;
  }
  return request;
}

/** A clean draft with `mutations` applied, as a request. */
const requestOf = (op: Operation, mutations: fc.Arbitrary<Mutate[]>) =>
  fc.tuple(cleanDraft(op), mutations).map(([draft, ms]) => {
    for (const m of ms) m(draft);
    return serialize(op, draft);
  });

// ---------------------------------------------------------------------------------------------
// Checks

/** What is wrong with an answer, if anything. */
function problemWith(op: Operation, res: LightMyRequestResponse): string | null {
  if (res.statusCode >= 500) return `${res.statusCode}: ${res.body.slice(0, 200)}`;
  // A file answer (`produces`, e.g. text/csv) is checked by its type; errors are still JSON.
  if (op.route?.produces && res.statusCode === op.route.status)
    return String(res.headers['content-type']).startsWith(op.route.produces)
      ? null
      : `${res.statusCode} is not ${op.route.produces}`;
  let json: unknown;
  try {
    json = res.json();
  } catch {
    return `${res.statusCode} body is not JSON: ${res.body.slice(0, 200)}`;
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const shaped = apiErrorSchema.strict().safeParse(json);
    return shaped.success ? null : `${res.statusCode} body is not { error, code, fields? }`;
  }
  if (!op.route) return null;
  if (res.statusCode !== op.route.status)
    return `${res.statusCode} where the contract says ${op.route.status}`;
  const parsed = op.route.response.safeParse(json);
  return parsed.success ? null : `2xx body does not parse: ${parsed.error.message.slice(0, 300)}`;
}

const show = (r: FuzzRequest) =>
  `${r.method} ${r.url.slice(0, 160)} ${JSON.stringify(r.headers).slice(0, 120)} ` +
  JSON.stringify(String(r.payload ?? '').slice(0, 160));

/** Codes that mean a request was refused before any service looked at it. */
const REFUSED_AT_THE_DOOR = new Set([
  'validation_failed',
  'bad_request',
  'unsupported_media_type',
  'payload_too_large',
]);

describe('OpenAPI fuzz', () => {
  it('covers every published operation, each known to the contract', () => {
    expect(operations.length).toBeGreaterThanOrEqual(Object.keys(routes).length);
    expect(operations.filter((op) => !op.route).map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  for (const [i, op] of operations.entries()) {
    it(`${op.method} ${op.path}: no 5xx, no off-contract body, nothing late`, async () => {
      const problems = new Map<string, string>();
      let reached = 0;
      tokens.access = await signIn();
      const send = async (request: FuzzRequest, label: string) => {
        const res = await within(
          ANSWER_WITHIN_MS,
          show(request),
          t.app.inject({ ...request, remoteAddress: nextIp() }),
        );
        const problem =
          problemWith(op, res) ??
          // A forged cursor or a bad time is never taken (issue 26).
          (/ (forged (\d+|drawn)|time \d+)$/.test(label) && res.statusCode < 300
            ? `${res.statusCode}: took it`
            : null);
        // One example per kind of problem is enough to act on.
        const key = `${label}: ${problem?.slice(0, 40)}`;
        if (problem && !problems.has(key))
          problems.set(key, `${label}: ${problem}\n      ${show(request)}`);
        if (problem) return;
        const code = res.statusCode < 300 ? null : (res.json() as { code?: string }).code;
        if (!REFUSED_AT_THE_DOOR.has(code ?? '')) reached++;
      };
      const run = (label: string, mutations: fc.Arbitrary<Mutate[]>, numRuns: number, n = 0) =>
        fc.assert(
          fc.asyncProperty(requestOf(op, mutations), (r) => send(r, label)),
          { seed: SEED + i * 1_000 + n, numRuns, endOnFailure: true },
        );

      await run('clean', fc.constant([]), CLEAN_RUNS);
      const reachedClean = reached;

      const single: Array<[Target, string]> = targetsOf(op).flatMap((target) =>
        kindsFor(target).map((kind): [Target, string] => [target, kind]),
      );
      for (const [n, [target, kind]] of single.entries())
        await run(
          `${target.name} ${kind}`,
          mutation(op, target, kind).map((m) => [m]),
          1,
          n + 1,
        );
      await run(
        'mixed',
        fc.array(fc.oneof(...single.map(([target, kind]) => mutation(op, target, kind))), {
          minLength: 2,
          maxLength: 4,
        }),
        MIXED_RUNS,
        999,
      );
      expect([...problems.values()]).toEqual([]);
      // Clean requests reach the service; otherwise the rest would only exercise validation.
      expect(reachedClean, 'clean requests that got past validation').toBeGreaterThan(0);
    });
  }
});
describe('HTTP edge probe (real server)', () => {
  it('bad escapes, long segments and huge query strings get a shaped 4xx, promptly', async () => {
    // The contract's paths, and the ones outside it (files, sitemaps, health, docs, unknown).
    const paths = () => [
      ...operations.map((op) => op.path),
      '/files/public/{key}',
      '/files/{key}',
      '/sitemaps/{name}',
      '/sitemap.xml',
      '/robots.txt',
      '/healthz',
      '/readyz',
      '/openapi.json',
      '/docs/{file}',
      '/dev/mail',
      '/{page}',
    ];
    /** Kinds of path segment, each tried in each place of each path. */
    const families: Array<fc.Arbitrary<string>> = [
      fc.constantFrom(...RAW_ESCAPES, '%%', '%u0041', '%C3', '%F0%9F%98'),
      fc.integer({ min: 100, max: 6_000 }).map((n) => 'z'.repeat(n)),
      fc.oneof(withNul, withControl, wrongText).map(pct),
      // Numbered names at their edges (sitemap pages).
      fc.constantFrom(0, 1, 999_999).map((n) => `products-${n}.xml`),
    ];
    const places = ['param', 'static', 'query'] as const;
    const rest = fc.record({
      queryBytes: fc.option(fc.integer({ min: 1_000, max: 120_000 })),
      method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'),
    });
    const problems: string[] = [];
    const probe = async (
      path: string,
      where: (typeof places)[number],
      segment: string,
      { queryBytes, method }: { queryBytes: number | null; method: string },
    ) => {
      let url = path.replace(/\{\w+\}/g, where === 'param' ? segment : 'x');
      if (where === 'static') url = url.replace(/\/[^/]+$/, `/${segment}`);
      const query = [where === 'query' ? `q=${segment}` : '', 'a'.repeat(queryBytes ?? 0)];
      url += '?' + query.filter(Boolean).join('&');
      const conn = await RawConnection.connect(port);
      conn.headOnly = method === 'HEAD';
      try {
        conn.write(requestHead(method, url, { connection: 'close' }));
        const res = await within(
          ANSWER_WITHIN_MS,
          `${method} ${url.slice(0, 100)}`,
          conn.response(),
        );
        const label = `${res.status} ${method} ${url.slice(0, 120)}`;
        if (res.status >= 500) problems.push(`${label}: ${res.body.slice(0, 200)}`);
        else if ((res.status < 200 || res.status >= 300) && method !== 'HEAD') {
          let body: unknown = res.body;
          try {
            body = JSON.parse(res.body);
          } catch {
            // Not JSON: reported below as off the error shape.
          }
          if (!apiErrorSchema.strict().safeParse(body).success)
            problems.push(`${label}: not the error shape: ${res.body.slice(0, 200)}`);
        }
      } finally {
        conn.destroy();
      }
    };
    let n = 0;
    for (const path of paths())
      for (const where of places)
        for (const family of families)
          await fc.assert(
            fc.asyncProperty(family, rest, (segment, other) => probe(path, where, segment, other)),
            { seed: SEED + n++, numRuns: PROBES_PER_PLACE, endOnFailure: true },
          );
    expect(problems).toEqual([]);
  });
});
