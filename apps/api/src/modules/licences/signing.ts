// Each vendor's Ed25519 key pair, made when first needed, and the signatures of validation answers.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type KeyObject,
} from 'node:crypto';
import { canonicalJson } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { sha256 } from '../../lib.ts';
import { licenceSealer } from './keys.ts';

export interface VendorKey {
  keyId: string;
  privateKey: KeyObject;
  /** The raw 32-byte public key, base64. */
  publicKeyRaw: string;
  publicKeyPem: string;
  createdAt: Date;
}

interface KeyRow extends Record<string, unknown> {
  key_id: string;
  public_key: string;
  private_key: string;
  created_at: Date | string;
}

/** Opened keys per app and vendor: a vendor's pair never changes once made. */
const opened = new WeakMap<AppDeps, Map<string, VendorKey>>();

function cacheOf(deps: AppDeps): Map<string, VendorKey> {
  let cache = opened.get(deps);
  if (!cache) opened.set(deps, (cache = new Map()));
  return cache;
}

/** SPKI DER of an Ed25519 key is a fixed 12-byte header and the 32 raw bytes. */
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function publicKeyOfRaw(raw: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(raw, 'base64')]),
    format: 'der',
    type: 'spki',
  });
}

function open(deps: AppDeps, vendorId: string, row: KeyRow): VendorKey {
  const pem = licenceSealer(deps).open(row.private_key);
  if (!pem) throw new Error(`the licence signing key of vendor ${vendorId} cannot be opened`);
  const key: VendorKey = {
    keyId: row.key_id,
    privateKey: createPrivateKey(pem),
    publicKeyRaw: row.public_key,
    publicKeyPem: publicKeyOfRaw(row.public_key).export({ format: 'pem', type: 'spki' }).toString(),
    createdAt: new Date(row.created_at),
  };
  cacheOf(deps).set(vendorId, key);
  return key;
}

/** The cached key, or the stored row opened (`row` from a query that already read it). */
export function cachedVendorKey(
  deps: AppDeps,
  vendorId: string,
  row?: { [K in keyof KeyRow]?: KeyRow[K] | null } | null,
): VendorKey | null {
  const hit = cacheOf(deps).get(vendorId);
  if (hit) return hit;
  return row?.key_id && row.public_key && row.private_key && row.created_at
    ? open(deps, vendorId, row as KeyRow)
    : null;
}

/**
 * The vendor's key pair, made and stored (private key sealed) the first time it is needed. Two
 * callers racing both insert-if-missing and read back the row that won.
 */
export async function vendorKey(deps: AppDeps, db: Tx, vendorId: string): Promise<VendorKey> {
  const cached = cachedVendorKey(deps, vendorId);
  if (cached) return cached;
  const read = () =>
    db.execute<KeyRow>(sql`select key_id, public_key, private_key, created_at
      from licence_vendor_keys where vendor_id = ${vendorId}`);
  let row = (await read()).rows[0];
  if (!row) {
    const pair = generateKeyPairSync('ed25519');
    const der = pair.publicKey.export({ format: 'der', type: 'spki' });
    const raw = der.subarray(SPKI_ED25519_PREFIX.length).toString('base64');
    const pem = pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await db.execute(sql`insert into licence_vendor_keys (vendor_id, key_id, public_key, private_key)
      values (${vendorId}, ${sha256(raw).slice(0, 16)}, ${raw}, ${licenceSealer(deps).seal(pem)})
      on conflict (vendor_id) do nothing`);
    row = (await read()).rows[0]!;
  }
  return open(deps, vendorId, row);
}

/** Ed25519 over the canonical JSON of `answer` (every field but the signature), base64. */
export function signAnswer(key: KeyObject, answer: object): string {
  return sign(null, Buffer.from(canonicalJson(answer)), key).toString('base64');
}

/**
 * A key pair of no vendor: answers for keys that open no licence sign with it and throw the
 * signature away, so they cost what a real answer costs (ADR 032, enumeration).
 */
export const decoyKey: KeyObject = generateKeyPairSync('ed25519').privateKey;
