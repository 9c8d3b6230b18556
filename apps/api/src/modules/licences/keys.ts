// Licence keys: made, hashed for lookup, sealed for the buyer to see again (ADR 032).
import { randomInt } from 'node:crypto';
import {
  CROCKFORD_ALPHABET,
  formatLicenceKey,
  LICENCE_KEY_LENGTH,
  licenceMessages as m,
  normaliseLicenceKey,
} from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { sha256 } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { Sealer } from '../../platform/seal.ts';

export interface NewKey {
  /** `TS-XXXXX-XXXXX-XXXXX-XXXXX`: shown to the buyer, never stored in plain text or logged. */
  formatted: string;
  hash: string;
  sealed: string;
}

/** 20 Crockford base32 characters from the CSPRNG: 100 bits, so guessing one is hopeless. */
export function newKey(sealer: Sealer): NewKey {
  let canonical = '';
  for (let i = 0; i < LICENCE_KEY_LENGTH; i++) canonical += CROCKFORD_ALPHABET[randomInt(32)];
  return {
    formatted: formatLicenceKey(canonical),
    hash: keyHash(canonical),
    sealed: sealer.seal(canonical),
  };
}

/** What licences are looked up by: SHA-256 of the canonical characters (no prefix, no dashes). */
export const keyHash = (canonical: string): string => sha256(canonical);

/** The lookup hash of a key as a client sent it; a malformed key is a 400 that never echoes it. */
export function hashOfTypedKey(typed: string): string {
  const canonical = normaliseLicenceKey(typed);
  if (!canonical) throw new AppError('validation_failed', m.keyFormat, { key: m.keyFormat });
  return keyHash(canonical);
}

/** The buyer's key, formatted; null when it cannot be opened (another secret). */
export function openKey(sealer: Sealer, sealed: string): string | null {
  const canonical = sealer.open(sealed);
  return canonical ? formatLicenceKey(canonical) : null;
}

const sealers = new WeakMap<AppDeps, Sealer>();
export function licenceSealer(deps: Pick<AppDeps, 'config'>): Sealer {
  let s = sealers.get(deps as AppDeps);
  if (!s) sealers.set(deps as AppDeps, (s = new Sealer(deps.config.CODE_SECRET)));
  return s;
}

/** The same answer for every key that does not open a licence, whatever the reason. */
export const invalidKey = () => new AppError('licence_invalid', m.keyInvalid);
