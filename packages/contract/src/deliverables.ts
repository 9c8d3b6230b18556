import { z } from 'zod';
import { idSchema, isoDateTime, messageResponse } from './common.ts';
import {
  DELIVERABLE_VERSION_MAX,
  deliverableMessages as m,
  deliverablePlatforms,
  deliverableVersionPattern,
  RELEASE_NOTES_MAX,
  SETUP_GUIDE_MAX,
  updatePolicies,
} from './constants/deliverables.ts';
import { defineRoute } from './route.ts';

export * from './constants/deliverables.ts';

// Deliverables (issue 29): files per platform in numbered versions, a set-up guide, an updates
// promise; one mechanism for every product kind (app licence builds included).

export const deliverablePlatform = z.enum(deliverablePlatforms, { error: m.platform });
export const updatePolicy = z.enum(updatePolicies);

export const deliverableVersionSchema = z
  .string({ error: m.version })
  .trim()
  .max(DELIVERABLE_VERSION_MAX, m.version)
  .regex(deliverableVersionPattern, m.version);

export const releaseNotesSchema = z.string().trim().max(RELEASE_NOTES_MAX, m.notes);

/** One version of a platform's file (or link), as buyers see it. */
export const deliverableVersion = z
  .object({
    id: z.string(),
    version: z.string(),
    /** Markdown as written, and rendered and sanitised (ADR 056). */
    notes: z.string(),
    notesHtml: z.string(),
    /** A file: its name and size; a link (thinkorswim): null, and `link` is set. */
    fileName: z.string().nullable(),
    sizeBytes: z.number().int().nullable(),
    sha256: z.string().nullable(),
    link: z.string().nullable(),
    releasedAt: isoDateTime,
    /** False for a version this purchase's updates promise does not cover (shown, not offered). */
    available: z.boolean(),
  })
  .meta({ id: 'DeliverableVersion' });
export type DeliverableVersion = z.infer<typeof deliverableVersion>;

export const platformDelivery = z.object({
  platform: deliverablePlatform,
  label: z.string(),
  /** The version buyers download now. */
  current: deliverableVersion,
  /** Earlier versions, newest first (for going back). */
  earlier: z.array(deliverableVersion),
});
export type PlatformDelivery = z.infer<typeof platformDelivery>;

/** What an owner gets for a product: files, guide, licence key; or why downloads have ended. */
export const ownedDelivery = z
  .object({
    product: z.object({ id: z.string(), slug: z.string(), title: z.string() }),
    /** Null while downloads are open; the reason (`deliverableMessages.ended`) when they are not. */
    ended: z.object({ reason: z.string(), message: z.string() }).nullable(),
    updates: z.object({ policy: updatePolicy, label: z.string() }),
    platforms: z.array(platformDelivery),
    guide: z.object({ html: z.string(), updatedAt: isoDateTime }).nullable(),
    /** The app's licence key, when the product issues licences. */
    licenceKey: z.string().nullable(),
    /** The id added to archives this buyer downloads (`LICENSE-<id>.txt`): the vendor finds it in Sales. */
    traceId: z.string(),
    /** Whether new versions are e-mailed to this buyer. */
    versionMails: z.boolean(),
  })
  .meta({ id: 'OwnedDelivery' });
export type OwnedDelivery = z.infer<typeof ownedDelivery>;

/** What a product page says it delivers, derived from the data (never hand-written copy). */
export const deliverySummary = z
  .object({
    files: z.array(
      z.object({
        platform: deliverablePlatform,
        label: z.string(),
        version: z.string(),
        releasedAt: isoDateTime,
      }),
    ),
    guide: z.boolean(),
    discordRoles: z.boolean(),
    course: z.boolean(),
    licence: z.boolean(),
    tradingViewScript: z.boolean(),
    /** An alert product: the line saying how its alerts arrive (channels in words); else null. */
    alerts: z.string().nullable(),
    updates: z.object({ policy: updatePolicy, label: z.string() }),
  })
  .meta({ id: 'DeliverySummary' });
export type DeliverySummary = z.infer<typeof deliverySummary>;

/** The vendor's view of one version, drafts included. */
export const vendorDeliverableVersion = deliverableVersion
  .omit({ available: true })
  .extend({
    platform: deliverablePlatform,
    /** Null for a draft (uploaded, not yet offered). */
    publishedAt: isoDateTime.nullable(),
    current: z.boolean(),
    downloads: z.number().int(),
  })
  .meta({ id: 'VendorDeliverableVersion' });
export type VendorDeliverableVersion = z.infer<typeof vendorDeliverableVersion>;

export const vendorDelivery = z
  .object({
    productId: z.string(),
    updatePolicy,
    /** The guide's Markdown as written; empty when there is none. */
    guide: z.string(),
    guideUpdatedAt: isoDateTime.nullable(),
    /** Every version, drafts first, then newest first. */
    versions: z.array(vendorDeliverableVersion),
  })
  .meta({ id: 'VendorDelivery' });
export type VendorDelivery = z.infer<typeof vendorDelivery>;

export const productIdParams = z.object({ productId: idSchema });
export const versionParams = z.object({ productId: idSchema, versionId: idSchema });
export const uploadDeliverableQuery = z.object({
  platform: deliverablePlatform,
  version: deliverableVersionSchema,
});
export const deliverableLinkBody = z.object({
  platform: deliverablePlatform,
  version: deliverableVersionSchema,
  url: z.url({ protocol: /^https$/, error: m.link }).max(500, m.link),
});
export const publishVersionBody = z.object({ notes: releaseNotesSchema });
export const deliverySettingsBody = z.object({
  updatePolicy,
  guide: z.string().max(SETUP_GUIDE_MAX, m.guide),
});
export type DeliverySettingsBody = z.infer<typeof deliverySettingsBody>;
export const unsubscribeVersionsBody = z.object({ token: z.string().min(1).max(512) });

export const deliverablesRoutes = {
  ownedDelivery: defineRoute({
    method: 'GET',
    path: '/api/v1/library/{productId}/delivery',
    auth: 'bearer',
    summary:
      "What the signed-in owner gets for a product: each platform's current and earlier versions with notes, the set-up guide, the licence key, or why downloads have ended. 404 when the caller does not own it.",
    tags: ['library'],
    status: 200,
    params: productIdParams,
    response: z.object({ delivery: ownedDelivery }),
  }),
  downloadLink: defineRoute({
    method: 'POST',
    path: '/api/v1/library/{productId}/versions/{versionId}/download',
    auth: 'bearer',
    summary:
      'A signed link that downloads one version for 10 minutes, counted per buyer and rate-limited. 403 with the reason when downloads have ended or the version is outside the updates the purchase includes.',
    tags: ['library'],
    status: 200,
    params: versionParams,
    response: z.object({ url: z.string(), expiresAt: isoDateTime, fileName: z.string() }),
  }),
  unsubscribeVersionMails: defineRoute({
    method: 'POST',
    path: '/api/v1/library/version-mails/unsubscribe',
    auth: 'none',
    summary:
      "One-click unsubscribe from one product's new-version e-mails (the token is in each e-mail).",
    tags: ['library'],
    status: 200,
    body: unsubscribeVersionsBody,
    response: messageResponse,
  }),
  setVersionMails: defineRoute({
    method: 'PUT',
    path: '/api/v1/library/{productId}/version-mails',
    auth: 'bearer',
    summary:
      "Turns one owned product's new-version e-mails on or off for the signed-in owner (the way back after an e-mail's unsubscribe link). 404 when the caller does not own it.",
    tags: ['library'],
    status: 200,
    params: productIdParams,
    body: z.object({ enabled: z.boolean() }),
    response: z.object({ versionMails: z.boolean(), message: z.string() }),
  }),
  vendorDelivery: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/products/{productId}/delivery',
    auth: 'bearer',
    summary:
      "A product's versions (drafts included) with download counts, its guide and updates policy.",
    tags: ['vendor'],
    status: 200,
    params: productIdParams,
    response: z.object({ delivery: vendorDelivery }),
  }),
  saveDeliverySettings: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/products/{productId}/delivery',
    auth: 'bearer',
    summary: "Saves a product's set-up guide (Markdown) and what it promises about updates.",
    tags: ['vendor'],
    status: 200,
    params: productIdParams,
    body: deliverySettingsBody,
    response: z.object({ delivery: vendorDelivery, message: z.string() }),
  }),
  addGuideImage: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/products/{productId}/guide/images',
    auth: 'bearer',
    summary:
      "Adds a picture for the product's set-up guide (multipart field `file`: PNG, JPEG or WebP up to 2 MB, decoded and stored cleaned) and answers the Markdown that shows it. The guide shows only its own product's pictures.",
    tags: ['vendor'],
    status: 201,
    multipart: true,
    params: productIdParams,
    response: z.object({
      url: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      markdown: z.string(),
    }),
  }),
  uploadDeliverable: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/products/{productId}/versions',
    auth: 'bearer',
    summary:
      'Uploads a draft version for one platform (multipart field `file`, `?platform=&version=`), streamed and checked by its bytes (type, size up to 200 MB, archive safety). Publish it to offer it.',
    tags: ['vendor'],
    status: 201,
    multipart: true,
    params: productIdParams,
    query: uploadDeliverableQuery,
    response: z.object({ delivery: vendorDelivery, versionId: z.string() }),
  }),
  addDeliverableLink: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/products/{productId}/links',
    auth: 'bearer',
    summary: 'Adds a draft version that is a link (a thinkorswim shared study).',
    tags: ['vendor'],
    status: 201,
    params: productIdParams,
    body: deliverableLinkBody,
    response: z.object({ delivery: vendorDelivery, versionId: z.string() }),
  }),
  publishDeliverable: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/products/{productId}/versions/{versionId}/publish',
    auth: 'bearer',
    summary:
      "Publishes a draft with its release notes: it becomes its platform's current version and owners who get updates are e-mailed.",
    tags: ['vendor'],
    status: 200,
    params: versionParams,
    body: publishVersionBody,
    response: z.object({ delivery: vendorDelivery, message: z.string() }),
  }),
  makeDeliverableCurrent: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/products/{productId}/versions/{versionId}/current',
    auth: 'bearer',
    summary:
      'Makes an earlier published version the one buyers download (roll-back). Nobody is e-mailed.',
    tags: ['vendor'],
    status: 200,
    params: versionParams,
    response: z.object({ delivery: vendorDelivery, message: z.string() }),
  }),
  deleteDeliverableDraft: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/products/{productId}/versions/{versionId}',
    auth: 'bearer',
    summary:
      'Deletes a draft version and its file. Published versions stay, for buyers who rely on them.',
    tags: ['vendor'],
    status: 200,
    params: versionParams,
    response: z.object({ delivery: vendorDelivery }),
  }),
} as const;
