/**
 * Licences for app products (issue 17, ADR 032): key format, binding presets, limits, messages and
 * the canonical JSON that validation answers are signed over. Plain values and pure functions, no
 * zod, so the web app (and a vendor's own client) can use them.
 */

/** A licence as the buyer and the vendor's app see it. */
export const licenceStatuses = ['active', 'expired', 'revoked'] as const;
export type LicenceStatus = (typeof licenceStatuses)[number];

/** What an activation is bound to: the fingerprint's format depends on it. */
export const licenceBindings = ['metatrader_account', 'ninjatrader_machine', 'device'] as const;
export type LicenceBinding = (typeof licenceBindings)[number];

/** A licence's history, for the buyer and support. */
export const licenceEventTypes = [
  'issued',
  'activated',
  'deactivated',
  'reset',
  'expiry_changed',
  'revoked',
  'expired',
] as const;
export type LicenceEventType = (typeof licenceEventTypes)[number];

/** Keys read `TS-XXXXX-XXXXX-XXXXX-XXXXX`: 20 Crockford base32 characters, 100 random bits. */
export const LICENCE_KEY_PREFIX = 'TS';
export const LICENCE_KEY_LENGTH = 20;
export const LICENCE_KEY_GROUP = 5;
/** Crockford's base32: no I, L, O or U (I and L read as 1, O as 0 when typed). */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/**
 * A key as people type or paste it: optional `TS` prefix, any case, dashes or spaces anywhere, and
 * Crockford's look-alikes (I, L, O). No U: it is not in the alphabet.
 */
export const licenceKeyPattern =
  /^\s*(?:[Tt][Ss][-\s]*)?(?:[0-9A-TV-Za-tv-z][-\s]*){19}[0-9A-TV-Za-tv-z]\s*$/;
export const LICENCE_KEY_INPUT_MAX = 64;

/** Key resets a buyer may make per licence (each issues a new key and removes every activation). */
export const LICENCE_RESETS_MAX = 3;
/** Activations per licence when the product sets none. */
export const LICENCE_DEFAULT_MAX_ACTIVATIONS = 3;
/** How long a signed validation answer may be trusted offline (unless the licence ends sooner). */
export const LICENCE_OFFLINE_GRACE_HOURS = 72;
/** Names people give their devices (`Trading desktop`, `IC Markets live`). */
export const ACTIVATION_NAME_MAX = 80;
/** A client's nonce, echoed in the signed validation answer (replay protection when online). */
export const LICENCE_NONCE_MAX = 128;

/** The 20 canonical characters of a typed key, or null when it is not one. */
export function normaliseLicenceKey(input: string): string | null {
  let s = input.replace(/[\s-]+/g, '').toUpperCase();
  if (
    s.length === LICENCE_KEY_LENGTH + LICENCE_KEY_PREFIX.length &&
    s.startsWith(LICENCE_KEY_PREFIX)
  )
    s = s.slice(LICENCE_KEY_PREFIX.length);
  if (s.length !== LICENCE_KEY_LENGTH) return null;
  s = s.replace(/[IL]/g, '1').replace(/O/g, '0');
  for (const c of s) if (!CROCKFORD_ALPHABET.includes(c)) return null;
  return s;
}

/** `TS-XXXXX-XXXXX-XXXXX-XXXXX` from the 20 canonical characters. */
export function formatLicenceKey(canonical: string): string {
  const groups: string[] = [];
  for (let i = 0; i < canonical.length; i += LICENCE_KEY_GROUP)
    groups.push(canonical.slice(i, i + LICENCE_KEY_GROUP));
  return [LICENCE_KEY_PREFIX, ...groups].join('-');
}

/** Each binding preset: what its fingerprint is and the format it must have. */
export const bindingRules: Record<
  LicenceBinding,
  { label: string; pattern: RegExp; message: string }
> = {
  metatrader_account: {
    label: 'MetaTrader account',
    pattern: /^\d{3,20}$/,
    message: 'A MetaTrader account number is 3 to 20 digits.',
  },
  ninjatrader_machine: {
    label: 'NinjaTrader machine',
    pattern: /^[A-Za-z0-9]{16,64}$/,
    message: 'A NinjaTrader machine id is 16 to 64 letters and digits.',
  },
  device: {
    label: 'Device',
    pattern: /^[\x21-\x7e]{8,128}$/,
    message: 'A device fingerprint is 8 to 128 visible ASCII characters.',
  },
};

/** Any preset's fingerprint (validate and deactivate do not say which preset). */
export const fingerprintPattern = /^[\x21-\x7e]{3,128}$/;
export const FINGERPRINT_MAX = 128;

/** What is wrong with a fingerprint for a binding, in words; null when it fits. */
export function fingerprintProblem(binding: LicenceBinding, fingerprint: string): string | null {
  const rule = bindingRules[binding];
  return rule.pattern.test(fingerprint) ? null : rule.message;
}

/**
 * The exact text a validation answer's signature covers: the answer without `signature`, as JSON
 * with object keys sorted (by UTF-16 code units, as `Array.prototype.sort` does) at every level and
 * no whitespace. Answers hold only strings, booleans, null, whole numbers, objects and arrays, so
 * this is RFC 8785 (JCS) for them. Fields whose value is `undefined` are left out.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
}

/** What the apps page and the licence API say. Never a key: errors must not echo one. */
export const licenceMessages = {
  keyFormat: 'Enter the licence key as shown on your apps page (TS-XXXXX-XXXXX-XXXXX-XXXXX).',
  /** The same words for a key that never existed, was replaced by a reset, or was mistyped. */
  keyInvalid: 'This licence key is not valid.',
  fingerprintFormat: 'The device fingerprint is 3 to 128 visible ASCII characters.',
  nameRequired: 'Name this activation (for example "Trading desktop").',
  limitReached: (max: number) =>
    `This licence is active on ${max} of ${max} devices. Deactivate one on your apps page (or from the app on that device) to use it here.`,
  bindingMismatch: (label: string) => `This app activates per ${label}.`,
  expired: 'This licence has expired. Renew the subscription to use it again.',
  revoked: 'This licence was revoked.',
  notActivated: 'This device is not activated for this licence.',
  notFound: 'Licence not found.',
  activationNotFound: 'That activation does not exist (it may already be deactivated).',
  resetsUsed: `You have used all ${LICENCE_RESETS_MAX} key resets for this licence. Contact support if you need another.`,
  resetInactive: 'Only an active licence can get a new key.',
  noBuild: 'The vendor has not published a download for this app yet.',
  downloadInactive: 'Downloads stop when the licence is no longer active.',
  vendorNotFound: 'No vendor has that address.',
} as const;

/** Why a licence ended, in the apps page's words. */
export const licenceEndedWords: Record<string, string> = {
  refunded: 'Revoked: the purchase was refunded.',
  disputed: 'Revoked: the payment was disputed.',
  subscription_ended: 'Expired: the subscription ended.',
  revoked: 'Revoked by the vendor.',
};
