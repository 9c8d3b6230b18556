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

/** Opened keys per app, by key id: a stored pair never changes (rotation adds a new one). */
const opened = new WeakMap<AppDeps, Map<string, VendorKey>>();

function cacheOf(deps: AppDeps): Map<string, VendorKey> {
  let cache = opened.get(deps);
  if (!cache) opened.set(deps, (cache = new Map()));
  return cache;
}

/** SPKI DER of an Ed25519 key is a fixed 12-byte header and the 32 raw bytes. */
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export function publicKeyPemOfRaw(raw: string): string {
  return createPublicKey({
    key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(raw, 'base64')]),
    format: 'der',
    type: 'spki',
  })
    .export({ format: 'pem', type: 'spki' })
    .toString();
}

function open(deps: AppDeps, row: KeyRow): VendorKey {
  const pem = licenceSealer(deps).open(row.private_key);
  if (!pem) throw new Error(`the licence signing key ${row.key_id} cannot be opened`);
  const key: VendorKey = {
    keyId: row.key_id,
    privateKey: createPrivateKey(pem),
    publicKeyRaw: row.public_key,
    publicKeyPem: publicKeyPemOfRaw(row.public_key),
    createdAt: new Date(row.created_at),
  };
  cacheOf(deps).set(row.key_id, key);
  return key;
}

/** The key a query already read (`row`), opened once and cached by its id; null without one. */
export function cachedVendorKey(
  deps: AppDeps,
  row?: { [K in keyof KeyRow]?: KeyRow[K] | null } | null,
): VendorKey | null {
  if (!row?.key_id) return null;
  const hit = cacheOf(deps).get(row.key_id);
  if (hit) return hit;
  return row.public_key && row.private_key && row.created_at ? open(deps, row as KeyRow) : null;
}

/** A new pair: the raw public key, its id and the sealed private key. */
function newPair(deps: AppDeps) {
  const pair = generateKeyPairSync('ed25519');
  const der = pair.publicKey.export({ format: 'der', type: 'spki' });
  const raw = der.subarray(SPKI_ED25519_PREFIX.length).toString('base64');
  const pem = pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return { keyId: sha256(raw).slice(0, 16), raw, sealed: licenceSealer(deps).seal(pem) };
}

const insertCurrent = (deps: AppDeps, db: Tx, vendorId: string) => {
  const pair = newPair(deps);
  return db.execute(sql`insert into licence_vendor_keys (key_id, vendor_id, public_key, private_key)
    values (${pair.keyId}, ${vendorId}, ${pair.raw}, ${pair.sealed})
    on conflict (vendor_id) where retired_at is null do nothing`);
};

/**
 * The vendor's current key pair, made and stored (private key sealed) the first time it is needed.
 * Two callers racing both insert-if-missing and read back the row that won.
 */
export async function vendorKey(deps: AppDeps, db: Tx, vendorId: string): Promise<VendorKey> {
  const read = () =>
    db.execute<KeyRow>(sql`select key_id, public_key, private_key, created_at
      from licence_vendor_keys where vendor_id = ${vendorId} and retired_at is null`);
  let row = (await read()).rows[0];
  if (!row) {
    await insertCurrent(deps, db, vendorId);
    row = (await read()).rows[0]!;
  }
  return cachedVendorKey(deps, row) ?? open(deps, row);
}

/**
 * Rotation (ADR 044): the licences that sign with the current key are pinned to it, the key is
 * retired (it keeps signing for them), and a new current key signs every licence issued from now.
 * Rotations of one vendor take turns on the current key's row.
 */
export async function rotateVendorKey(deps: AppDeps, db: Tx, vendorId: string): Promise<void> {
  const current = (
    await db.execute<{ key_id: string }>(sql`select key_id from licence_vendor_keys
      where vendor_id = ${vendorId} and retired_at is null for update`)
  ).rows[0];
  if (current) {
    await db.execute(sql`update licences set signing_key_id = ${current.key_id}
      where vendor_id = ${vendorId} and signing_key_id is null`);
    await db.execute(sql`update licence_vendor_keys set retired_at = now()
      where key_id = ${current.key_id}`);
  }
  await insertCurrent(deps, db, vendorId);
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
