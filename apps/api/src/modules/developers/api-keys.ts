// Use cases: a vendor's API keys (ADR 057). A key is `tsk_<live|test>_<lookup>_<secret>`: the
// lookup (64 random bits, hex) finds the row, the SHA-256 of the whole key is compared in constant
// time, and the key itself is answered once, when it is made.
import { randomBytes } from 'node:crypto';
import {
  API_KEYS_PER_VENDOR,
  developersMessages as m,
  twoFactorMessages,
  type ApiKey,
  type ApiKeyScope,
  type CreateApiKeyBody,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { AppDeps } from '../../deps.ts';
import { newId, safeEqual, sha256 } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { addressKey, rules } from '../../platform/rate-limit.ts';
import type { AccessClaims } from '../../platform/tokens.ts';
import { requireTwoFactorCode } from '../auth/index.ts';

const KEY = /^tsk_(live|test)_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

interface KeyRow extends Record<string, unknown> {
  id: string;
  vendor_id: string;
  created_by: string;
  name: string;
  environment: 'live' | 'test';
  lookup: string;
  secret_hash: string;
  scopes: ApiKeyScope[];
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** Production makes live keys; every other environment test keys, refused by production. */
export const environmentOf = (config: Pick<Config, 'APP_ENV'>) =>
  config.APP_ENV === 'production' ? 'live' : 'test';

function view(r: KeyRow): ApiKey {
  return {
    id: r.id,
    name: r.name,
    preview: `tsk_${r.environment}_${r.lookup.slice(0, 6)}…`,
    scopes: r.scopes,
    createdAt: iso(r.created_at)!,
    lastUsedAt: iso(r.last_used_at),
    revokedAt: iso(r.revoked_at),
  };
}

export async function listApiKeys(deps: AppDeps, vendorId: string): Promise<ApiKey[]> {
  const { rows } = await deps.database.db.execute<KeyRow>(sql`select * from api_keys
    where vendor_id = ${vendorId} order by created_at desc, id`);
  return rows.map(view);
}

/**
 * Makes a key: two-factor must be on and a current code given, as for a payout account change
 * (ADR 054). Only the key's hash is kept.
 */
export async function createApiKey(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  body: Omit<CreateApiKeyBody, 'scopes'> & { scopes: ApiKeyScope[] },
): Promise<{ apiKey: ApiKey; secret: string }> {
  try {
    await requireTwoFactorCode(deps, userId, body.twoFactorCode);
  } catch (err) {
    // The shared check words its "code needed" for payouts; here it is about a key.
    if (err instanceof AppError && err.message === twoFactorMessages.codeRequired)
      throw new AppError('forbidden', m.twoFactorCode, { twoFactorCode: m.twoFactorCode });
    throw err;
  }
  const environment = environmentOf(deps.config);
  const lookup = randomBytes(8).toString('hex');
  const secret = `tsk_${environment}_${lookup}_${randomBytes(32).toString('base64url')}`;
  const scopes = [...new Set(body.scopes)];
  const row = await deps.database.db.transaction(async (tx) => {
    // Serialises a vendor's creations, so the cap holds under concurrent requests.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`api-keys:${vendorId}`}))`);
    const { rows: counted } = await tx.execute<{ n: number }>(sql`select count(*)::int as n
      from api_keys where vendor_id = ${vendorId} and revoked_at is null`);
    if (counted[0]!.n >= API_KEYS_PER_VENDOR) throw new AppError('business_rule', m.tooManyKeys);
    const { rows } = await tx.execute<KeyRow>(sql`
      insert into api_keys (id, vendor_id, created_by, name, environment, lookup, secret_hash, scopes)
      values (${newId('key')}, ${vendorId}, ${userId}, ${body.name}, ${environment}, ${lookup},
        ${sha256(secret)}, ${sql.param(scopes)}::text[])
      returning *`);
    return rows[0]!;
  });
  return { apiKey: view(row), secret };
}

export async function revokeApiKey(deps: AppDeps, vendorId: string, id: string): Promise<ApiKey> {
  const { rows } = await deps.database.db.execute<KeyRow>(sql`update api_keys
    set revoked_at = coalesce(revoked_at, now())
    where id = ${id} and vendor_id = ${vendorId} returning *`);
  if (!rows[0]) throw new AppError('not_found', m.keyNotFound);
  return view(rows[0]);
}

/**
 * The caller behind a key, for a route that takes `scope`: 401 for a key that is not one of ours
 * (malformed, unknown, revoked, another environment's), 429 past the key's limit, 403 without the
 * scope. `sub` is the user who made the key, so handlers that record who acted still can.
 */
export async function authenticateApiKey(
  deps: AppDeps,
  key: string,
  scope: ApiKeyScope,
  ip: string,
): Promise<AccessClaims> {
  const parts = KEY.exec(key);
  const row =
    parts && parts[1] === environmentOf(deps.config)
      ? (
          await deps.database.db.execute<KeyRow>(
            sql`select * from api_keys where lookup = ${parts[2]!}`,
          )
        ).rows[0]
      : undefined;
  // Hashed and compared even when no row was found, so the answer takes as long either way.
  const matches = safeEqual(row?.secret_hash ?? sha256('no key'), sha256(key));
  if (!row || !matches || row.revoked_at !== null) {
    await deps.limiter.consume([{ rule: rules.apiKeyInvalidIp, key: addressKey(ip) }]);
    throw new AppError('invalid_token', m.keyInvalid);
  }
  await deps.limiter.consume([
    {
      rule: { ...rules.apiKey, limit: deps.config.API_KEY_LIMIT_PER_MINUTE },
      key: row.id,
    },
  ]);
  if (!row.scopes.includes(scope)) throw new AppError('forbidden', m.keyScope(scope));
  // "Last used" to the minute: one write a minute per key at most.
  await deps.database.db.execute(sql`update api_keys set last_used_at = now()
    where id = ${row.id} and (last_used_at is null or last_used_at < now() - interval '1 minute')`);
  return {
    sub: row.created_by,
    email: '',
    roles: ['vendor'],
    aud: 'tradeshelf:vendor',
    sid: `key:${row.id}`,
    apiKey: { id: row.id, vendorId: row.vendor_id },
  };
}
