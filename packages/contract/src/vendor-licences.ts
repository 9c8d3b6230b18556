import { z } from 'zod';
import { idSchema, isoDateTime, pageQuery } from './common.ts';
import {
  BUILD_VERSION_MAX,
  buildVersionPattern,
  LICENCE_MAX_ACTIVATIONS_LIMIT,
  LICENCE_MAX_ACTIVATIONS_MIN,
  vendorLicenceMessages as m,
} from './constants/vendor-licences.ts';
import { licenceBinding, licenceBuild } from './licences.ts';
import { defineRoute } from './route.ts';

export * from './constants/vendor-licences.ts';

// The vendor's licence policy (issue 19, ADR 044): activations, binding preset, signing keys, builds.

export const maxActivationsSchema = z
  .number({ error: m.maxActivations })
  .int(m.maxActivations)
  .min(LICENCE_MAX_ACTIVATIONS_MIN, m.maxActivations)
  .max(LICENCE_MAX_ACTIVATIONS_LIMIT, m.maxActivations);

export const licencePolicyBody = z.object({
  maxActivations: maxActivationsSchema,
  /** The one preset activations must use; null accepts any. */
  binding: licenceBinding.nullable(),
});
export type LicencePolicyBody = z.infer<typeof licencePolicyBody>;

export const buildVersionSchema = z
  .string({ error: m.version })
  .trim()
  .max(BUILD_VERSION_MAX, m.version)
  .regex(buildVersionPattern, m.version);

export const signingKey = z
  .object({
    keyId: z.string(),
    algorithm: z.literal('Ed25519'),
    publicKeyPem: z.string(),
    publicKeyRaw: z.string(),
    createdAt: isoDateTime,
    /** Null for the current key. */
    retiredAt: isoDateTime.nullable(),
    /** Licences whose answers this key signs. */
    licences: z.number().int(),
  })
  .meta({ id: 'LicenceSigningKey' });
export type SigningKey = z.infer<typeof signingKey>;

export const licenceCounts = z.object({
  issued: z.number().int(),
  active: z.number().int(),
  activations: z.number().int(),
});

export const vendorLicenceApp = z
  .object({
    productId: z.string(),
    title: z.string(),
    slug: z.string(),
    isActive: z.boolean(),
    maxActivations: z.number().int(),
    binding: licenceBinding.nullable(),
    counts: licenceCounts,
    build: licenceBuild.nullable(),
  })
  .meta({ id: 'VendorLicenceApp' });
export type VendorLicenceApp = z.infer<typeof vendorLicenceApp>;

export const vendorLicencePolicy = z.object({
  app: vendorLicenceApp,
  vendorUrl: z.string(),
  /** The current key first, then retired ones, newest first. */
  keys: z.array(signingKey),
  /** Every build, newest (the one buyers download) first. */
  builds: z.array(licenceBuild.extend({ id: z.string() })),
});
export type VendorLicencePolicy = z.infer<typeof vendorLicencePolicy>;

export const vendorLicenceParams = z.object({ productId: idSchema });
export const buildUploadQuery = z.object({ version: buildVersionSchema });

export const vendorLicencesRoutes = {
  vendorLicenceApps: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/licences',
    auth: 'bearer',
    summary:
      "The vendor's app products with their licence terms, issued and active licence counts and current build.",
    tags: ['vendor'],
    status: 200,
    query: pageQuery,
    response: z.object({ apps: z.array(vendorLicenceApp), nextCursor: z.string().nullable() }),
  }),
  vendorLicencePolicy: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/licences/{productId}',
    auth: 'bearer',
    summary: "An app's licence policy, the vendor's signing keys and the app's builds.",
    tags: ['vendor'],
    status: 200,
    params: vendorLicenceParams,
    response: z.object({ policy: vendorLicencePolicy }),
  }),
  updateLicencePolicy: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/licences/{productId}',
    auth: 'bearer',
    apiKeyScope: 'licences:write',
    summary:
      "Sets an app's maximum activations per licence and binding preset. Applies to its live licences from their next activation; devices already activated stay.",
    tags: ['vendor'],
    status: 200,
    params: vendorLicenceParams,
    body: licencePolicyBody,
    response: z.object({ policy: vendorLicencePolicy }),
  }),
  rotateLicenceKey: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/licences/signing-keys/rotate',
    auth: 'bearer',
    summary:
      "Makes a new signing key for all the vendor's apps. Licences issued before keep getting answers signed with the key they had; new licences use the new key.",
    tags: ['vendor'],
    status: 200,
    response: z.object({ keys: z.array(signingKey) }),
  }),
  uploadLicenceBuild: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/licences/{productId}/builds',
    auth: 'bearer',
    summary:
      'Publishes a new build (multipart field `file`, `?version=`; ZIP, tar.gz or a Windows program or installer recognised by its bytes, up to 100 MB). Buyers with a live licence download the newest.',
    tags: ['vendor'],
    status: 201,
    multipart: true,
    params: vendorLicenceParams,
    query: buildUploadQuery,
    response: z.object({ policy: vendorLicencePolicy }),
  }),
} as const;
