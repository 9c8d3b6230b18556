import { z } from 'zod';
import { idSchema, isoDateTime } from './common.ts';
import {
  ACTIVATION_NAME_MAX,
  FINGERPRINT_MAX,
  fingerprintPattern,
  LICENCE_KEY_INPUT_MAX,
  LICENCE_NONCE_MAX,
  LICENCE_OFFLINE_GRACE_HOURS,
  licenceBindings,
  licenceEventTypes,
  licenceKeyPattern,
  licenceMessages as m,
  licenceStatuses,
} from './constants/licences.ts';
import { defineRoute } from './route.ts';
import { hasUnreadableCharacters } from './rules/text.ts';

export * from './constants/licences.ts';

export const licenceStatus = z.enum(licenceStatuses);
export const licenceBinding = z.enum(licenceBindings);

const EXAMPLE_KEY = 'TS-7K2QF-9MXWD-4HB8R-ZT3NC';
const EXAMPLE_FINGERPRINT = '50012345';

/** A licence key as typed or pasted (normalised by the server; the format is public knowledge). */
export const licenceKeySchema = z
  .string({ error: m.keyFormat })
  .max(LICENCE_KEY_INPUT_MAX, m.keyFormat)
  .regex(licenceKeyPattern, m.keyFormat)
  .meta({ examples: [EXAMPLE_KEY] });

export const fingerprintSchema = z
  .string({ error: m.fingerprintFormat })
  .max(FINGERPRINT_MAX, m.fingerprintFormat)
  .regex(fingerprintPattern, m.fingerprintFormat)
  .meta({ examples: [EXAMPLE_FINGERPRINT] });

const activationName = z
  .string({ error: m.nameRequired })
  .trim()
  .min(1, m.nameRequired)
  .max(ACTIVATION_NAME_MAX, `At most ${ACTIVATION_NAME_MAX} characters.`)
  .refine((v) => !hasUnreadableCharacters(v), { error: 'Use letters, digits and punctuation.' })
  .meta({ examples: ['IC Markets live'] });

const productRef = z.object({ id: z.string(), slug: z.string(), title: z.string() });
const vendorRef = z.object({ vendorUrl: z.string(), displayName: z.string() });

/** One device (or trading account) a licence is active on. */
export const licenceActivation = z.object({
  id: z.string(),
  name: z.string(),
  binding: licenceBinding,
  fingerprint: z.string(),
  activatedAt: isoDateTime,
  /** The last activation or validation from it (updated at most every few minutes). */
  lastSeenAt: isoDateTime,
});
export type LicenceActivation = z.infer<typeof licenceActivation>;

export const licenceEvent = z.object({
  type: z.enum(licenceEventTypes),
  detail: z.string(),
  at: isoDateTime,
});
export type LicenceEvent = z.infer<typeof licenceEvent>;

/** The app's current build, downloaded through `licenceDownload`. */
export const licenceBuild = z.object({
  version: z.string(),
  fileName: z.string(),
  sizeBytes: z.number().int(),
  sha256: z.string(),
  publishedAt: isoDateTime,
});

/** A licence on the buyer's apps page (`GET /api/v1/licence` → `licences`, docs/product.md#calls). */
export const licence = z.object({
  id: z.string(),
  /** The key, for the buyer to copy (`TS-XXXXX-XXXXX-XXXXX-XXXXX`). */
  key: z.string(),
  status: licenceStatus,
  /** The status in words, with why it ended. */
  message: z.string(),
  /** Null: no end (bought once, or a subscription that renews). */
  expiresAt: isoDateTime.nullable(),
  issuedAt: isoDateTime,
  /** Null for a licence granted outside a purchase (the demo's). */
  purchaseId: z.string().nullable(),
  product: productRef,
  vendor: vendorRef,
  /** What this app binds activations to; null when the app accepts any preset. */
  binding: licenceBinding.nullable(),
  maxActivations: z.number().int(),
  activations: z.array(licenceActivation),
  resetsLeft: z.number().int(),
  build: licenceBuild.nullable(),
  /** Newest first, at most 20. */
  history: z.array(licenceEvent),
});
export type Licence = z.infer<typeof licence>;

export const licenceParams = z.object({ id: idSchema });
export const activationParams = z.object({ id: idSchema, activationId: idSchema });

export const activateBody = z
  .object({
    key: licenceKeySchema,
    fingerprint: fingerprintSchema,
    name: activationName,
    binding: licenceBinding,
  })
  .meta({
    examples: [
      {
        key: EXAMPLE_KEY,
        fingerprint: EXAMPLE_FINGERPRINT,
        name: 'IC Markets live',
        binding: 'metatrader_account',
      },
    ],
  });
export type ActivateBody = z.infer<typeof activateBody>;

export const keyAndFingerprint = z
  .object({ key: licenceKeySchema, fingerprint: fingerprintSchema })
  .meta({ examples: [{ key: EXAMPLE_KEY, fingerprint: EXAMPLE_FINGERPRINT }] });

export const validateBody = z
  .object({
    key: licenceKeySchema,
    fingerprint: fingerprintSchema,
    /** Echoed in the signed answer: an app that sends a fresh one knows the answer is not replayed. */
    nonce: z
      .string()
      .max(LICENCE_NONCE_MAX)
      .regex(/^[\x21-\x7e]*$/, 'The nonce is visible ASCII characters.')
      .optional(),
  })
  .meta({ examples: [{ key: EXAMPLE_KEY, fingerprint: EXAMPLE_FINGERPRINT, nonce: 'n-81f2c9' }] });

/** A licence as the vendor's app sees it (no key, no buyer). */
export const publicLicence = z.object({
  id: z.string(),
  status: licenceStatus,
  expiresAt: isoDateTime.nullable(),
  product: productRef,
  vendor: vendorRef,
  maxActivations: z.number().int(),
  activationsUsed: z.number().int(),
});

export const activateResponse = z
  .object({
    /** False when this fingerprint was already active (activating again changes nothing). */
    created: z.boolean(),
    activation: licenceActivation,
    licence: publicLicence,
  })
  .meta({
    examples: [
      {
        created: true,
        activation: {
          id: 'act_x8V0o2s2mQ6uS7Yh3w1Zbg',
          name: 'IC Markets live',
          binding: 'metatrader_account',
          fingerprint: EXAMPLE_FINGERPRINT,
          activatedAt: '2026-11-24T10:00:00.000Z',
          lastSeenAt: '2026-11-24T10:00:00.000Z',
        },
        licence: {
          id: 'lic_Yq0m5m3tB5Vt0Zc2J2b1ew',
          status: 'active',
          expiresAt: null,
          product: { id: 'prd_demo', slug: 'grid-guardian-ea', title: 'Grid Guardian EA' },
          vendor: { vendorUrl: 'pip-hunters', displayName: 'Pip Hunters' },
          maxActivations: 3,
          activationsUsed: 1,
        },
      },
    ],
  });

/**
 * A signed validation answer. `signature` is Ed25519 (base64) by the vendor's key `keyId` over
 * `canonicalJson` of every other field. Trust it offline until `validUntil`.
 */
export const validateResponse = z
  .object({
    /** Use the app: the licence is active and this device is activated. */
    valid: z.boolean(),
    status: licenceStatus,
    expiresAt: isoDateTime.nullable(),
    licenceId: z.string(),
    product: productRef,
    vendor: z.object({ vendorUrl: z.string() }),
    device: z.object({
      fingerprint: z.string(),
      activated: z.boolean(),
      binding: licenceBinding.nullable(),
    }),
    nonce: z.string().nullable(),
    issuedAt: isoDateTime,
    /** `issuedAt` + the offline grace, or the licence's end if sooner. */
    validUntil: isoDateTime,
    algorithm: z.literal('Ed25519'),
    keyId: z.string(),
    signature: z.string(),
  })
  .meta({
    examples: [
      {
        valid: true,
        status: 'active',
        expiresAt: null,
        licenceId: 'lic_Yq0m5m3tB5Vt0Zc2J2b1ew',
        product: { id: 'prd_demo', slug: 'grid-guardian-ea', title: 'Grid Guardian EA' },
        vendor: { vendorUrl: 'pip-hunters' },
        device: {
          fingerprint: EXAMPLE_FINGERPRINT,
          activated: true,
          binding: 'metatrader_account',
        },
        nonce: 'n-81f2c9',
        issuedAt: '2026-11-24T10:00:00.000Z',
        validUntil: '2026-11-27T10:00:00.000Z',
        algorithm: 'Ed25519',
        keyId: 'b64f0d3a9c2e7a41',
        signature: 'base64 Ed25519 signature',
      },
    ],
  });
export type ValidateResponse = z.infer<typeof validateResponse>;

export const deactivateResponse = z.object({
  /** False when the fingerprint was not active (deactivating again changes nothing). */
  deactivated: z.boolean(),
  licence: publicLicence,
});

export const vendorKeyParams = z.object({ vendorUrl: z.string().min(1).max(64) });

export const vendorPublicKey = z
  .object({
    vendorUrl: z.string(),
    algorithm: z.literal('Ed25519'),
    keyId: z.string(),
    /** SubjectPublicKeyInfo PEM, for `crypto.createPublicKey`. */
    publicKeyPem: z.string(),
    /** The raw 32-byte public key, base64 (libsodium, tweetnacl, .NET, MQL wrappers). */
    publicKeyRaw: z.string(),
    createdAt: isoDateTime,
    /**
     * Keys a rotation retired, newest first: they still sign for the licences issued before it
     * (ADR 044). An app that embeds them too picks the key by the answer's `keyId`.
     */
    retiredKeys: z.array(
      z.object({
        keyId: z.string(),
        publicKeyPem: z.string(),
        publicKeyRaw: z.string(),
        createdAt: isoDateTime,
        retiredAt: isoDateTime,
      }),
    ),
  })
  .meta({
    examples: [
      {
        vendorUrl: 'pip-hunters',
        algorithm: 'Ed25519',
        keyId: 'b64f0d3a9c2e7a41',
        publicKeyPem: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA…\n-----END PUBLIC KEY-----\n',
        publicKeyRaw: 'q3Vb0pX1…=',
        createdAt: '2026-11-24T10:00:00.000Z',
        retiredKeys: [],
      },
    ],
  });

const publicApi = `No user token: the key is the credential. Keys travel only in request bodies (never in URLs) and
are never logged or echoed. A key that does not exist, was replaced by a reset or is mistyped gets the same
404 \`licence_invalid\` answer. Rate-limited per key and per client address (429 with \`Retry-After\`).`;

const signedAnswers = `Verify the answer with the vendor's public key
(\`GET /api/v1/licence/vendors/{vendorUrl}/public-key\`): Ed25519 over the canonical JSON of every field except
\`signature\` (keys sorted at every level, no whitespace: RFC 8785). Cache the answer and trust it offline until
\`validUntil\` (${LICENCE_OFFLINE_GRACE_HOURS} h, or the licence's end if sooner).

\`\`\`sh
curl -s https://tradeshelf.example/api/v1/licence/validate \\
  -H 'content-type: application/json' \\
  -d '{"key":"${EXAMPLE_KEY}","fingerprint":"${EXAMPLE_FINGERPRINT}","nonce":"n-81f2c9"}'
\`\`\`

\`\`\`ts
import { createPublicKey, verify } from 'node:crypto';
const canonical = (v: unknown): string =>
  v === null || typeof v !== 'object' ? JSON.stringify(v)
  : Array.isArray(v) ? \`[\${v.map(canonical).join(',')}]\`
  : \`{\${Object.keys(v).sort().map((k) => \`\${JSON.stringify(k)}:\${canonical((v as any)[k])}\`).join(',')}}\`;
const { signature, ...signed } = answer;
const ok = verify(null, Buffer.from(canonical(signed)), createPublicKey(publicKeyPem),
  Buffer.from(signature, 'base64'));
const usable = ok && signed.valid && signed.device.fingerprint === myFingerprint
  && Date.parse(signed.validUntil) > Date.now();
\`\`\``;

export const licencesRoutes = {
  licences: defineRoute({
    method: 'GET',
    path: '/api/v1/licence',
    auth: 'bearer',
    summary:
      "The buyer's app licences (the apps page): key, app, status, expiry, activations, resets left, build and history.",
    tags: ['licences'],
    status: 200,
    response: z.object({ licences: z.array(licence) }),
  }),
  deactivateLicenceActivation: defineRoute({
    method: 'DELETE',
    path: '/api/v1/licence/{id}/activations/{activationId}',
    auth: 'bearer',
    summary: "Deactivates one of the buyer's devices, freeing its slot; returns the licence.",
    tags: ['licences'],
    status: 200,
    params: activationParams,
    response: z.object({ licence }),
  }),
  resetLicenceKey: defineRoute({
    method: 'POST',
    path: '/api/v1/licence/{id}/reset',
    auth: 'bearer',
    summary:
      'Issues a new key and removes every activation (the old key stops working at once); a few resets per licence (422 when used up).',
    tags: ['licences'],
    status: 200,
    params: licenceParams,
    response: z.object({ licence }),
  }),
  licenceDownload: defineRoute({
    method: 'GET',
    path: '/api/v1/licence/{id}/download',
    auth: 'bearer',
    summary:
      "A signed, expiring link to the app's current build, while the licence is active (422 otherwise).",
    tags: ['licences'],
    status: 200,
    params: licenceParams,
    response: z.object({ url: z.string(), expiresAt: isoDateTime, build: licenceBuild }),
  }),
  activateLicence: defineRoute({
    method: 'POST',
    path: '/api/v1/licence/activate',
    auth: 'none',
    summary:
      "For the vendor's app: activates this device (trading account, machine or fingerprint) on a key; the same fingerprint again is idempotent; 422 `activation_limit` past the licence's maximum.",
    description: `${publicApi}

\`\`\`sh
curl -s https://tradeshelf.example/api/v1/licence/activate \\
  -H 'content-type: application/json' \\
  -d '{"key":"${EXAMPLE_KEY}","fingerprint":"${EXAMPLE_FINGERPRINT}","name":"IC Markets live","binding":"metatrader_account"}'
\`\`\``,
    tags: ['licence API'],
    status: 200,
    body: activateBody,
    response: activateResponse,
  }),
  validateLicence: defineRoute({
    method: 'POST',
    path: '/api/v1/licence/validate',
    auth: 'none',
    summary:
      "For the vendor's app: the licence's status and expiry, its product and whether this device is activated, signed with the vendor's Ed25519 key.",
    description: `${publicApi}\n\n${signedAnswers}`,
    tags: ['licence API'],
    status: 200,
    body: validateBody,
    response: validateResponse,
  }),
  deactivateLicence: defineRoute({
    method: 'POST',
    path: '/api/v1/licence/deactivate',
    auth: 'none',
    summary:
      "For the vendor's app: releases this device's activation (idempotent: `deactivated` is false when it was not active).",
    description: publicApi,
    tags: ['licence API'],
    status: 200,
    body: keyAndFingerprint,
    response: deactivateResponse,
  }),
  vendorLicencePublicKey: defineRoute({
    method: 'GET',
    path: '/api/v1/licence/vendors/{vendorUrl}/public-key',
    auth: 'none',
    summary:
      "The vendor's Ed25519 public key that signs validation answers (PEM and raw base64); embed it in the app.",
    tags: ['licence API'],
    status: 200,
    params: vendorKeyParams,
    response: vendorPublicKey,
  }),
} as const;
