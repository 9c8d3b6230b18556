// Use cases: what an owner gets for a product, and its downloads (docs/product.md#deliverables).
// Another buyer's product is 404; downloads that ended (refund, dispute, revocation, the end of a
// subscription) are 403 with the reason; versions outside the updates promise are listed, not offered.
import {
  deliverableMessages as m,
  deliverablePlatformLabels,
  deliverablePlatforms,
  DOWNLOAD_LINK_SECONDS,
  SUBSCRIPTION_UPDATES_LABEL,
  updatePolicyLabels,
  type DeliverableVersion,
  type OwnedDelivery,
  type PlatformDelivery,
} from '@tradeshelf/contract';
import { renderMarkdown } from '@tradeshelf/contract/rules/markdown';
import type { FastifyReply } from 'fastify';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { attachmentDisposition } from '../../integrations/storage/port.ts';
import { byteRange, sendPart, unsatisfiable } from '../../platform/byte-range.ts';
import { AppError } from '../../platform/errors.ts';
import { rules } from '../../platform/rate-limit.ts';
import { productBasics } from '../catalog/index.ts';
import { contactsOf } from '../users/index.ts';
import { covers, grantOf, type Grant } from './grant.ts';
import * as repo from './repository.ts';
import { readDownload, readUnsubscribe, signDownload } from './tokens.ts';
import { isGuideImage, versionBasics } from './vendor.ts';
import { tracedZip } from './zip.ts';

/** What the wiring gives this module of the licences module (which builds on this one). */
export interface DeliveryHooks {
  /** The buyer's licence key for an app product, or null. */
  licenceKeyOf(deps: AppDeps, userId: string, productId: string): Promise<string | null>;
}

/** Where downloads are served; the token is all the request carries. */
export const DOWNLOAD_ROUTE = '/api/v1/downloads/:versionId';

const notOwned = () => new AppError('not_found', m.notOwned);
const versionNotFound = () => new AppError('not_found', m.versionNotFound);
const endedError = (reason: NonNullable<Grant['ended']>) =>
  new AppError('forbidden', m.ended[reason]);

/** The first release of each platform: always covered (see `covers`). */
function firstReleases(versions: readonly repo.VersionRow[]): Map<string, Date> {
  const first = new Map<string, Date>();
  for (const v of versions) {
    if (!v.publishedAt) continue;
    const seen = first.get(v.platform);
    if (!seen || v.publishedAt < seen) first.set(v.platform, v.publishedAt);
  }
  return first;
}

function buyerVersion(v: repo.VersionRow, available: boolean): DeliverableVersion {
  return {
    ...versionBasics(v),
    releasedAt: v.publishedAt!.toISOString(),
    available,
  };
}

async function loadOwned(deps: AppDeps, userId: string, productId: string) {
  const db = deps.database.db;
  const product = await productBasics(db, productId);
  if (!product) throw notOwned();
  const settings = await repo.settingsOf(db, productId);
  const grant = await grantOf(db, userId, productId, settings.updatePolicy);
  if (!grant) throw notOwned();
  return { product, settings, grant };
}

export async function ownedDelivery(
  deps: AppDeps,
  hooks: DeliveryHooks,
  userId: string,
  productId: string,
): Promise<OwnedDelivery> {
  const db = deps.database.db;
  const { product, settings, grant } = await loadOwned(deps, userId, productId);
  const [versions, out, licenceKey] = await Promise.all([
    repo.versionsOf(db, productId),
    repo.optedOut(db, userId, productId),
    grant.ended ? Promise.resolve(null) : hooks.licenceKeyOf(deps, userId, productId),
  ]);
  const first = firstReleases(versions);
  const platforms: PlatformDelivery[] = [];
  for (const platform of deliverablePlatforms) {
    const published = versions.filter((v) => v.platform === platform && v.publishedAt);
    const current = published.find((v) => v.isCurrent);
    if (!current) continue;
    const offer = (v: repo.VersionRow) =>
      buyerVersion(v, covers(grant, v, first.get(platform) ?? null));
    platforms.push({
      platform,
      label: deliverablePlatformLabels[platform],
      current: offer(current),
      earlier: published
        .filter((v) => v.id !== current.id)
        .sort((a, b) => b.publishedAt!.getTime() - a.publishedAt!.getTime())
        .map(offer),
    });
  }
  return {
    product: { id: product.id, slug: product.slug, title: product.title },
    ended: grant.ended ? { reason: grant.ended, message: m.ended[grant.ended] } : null,
    updates: {
      policy: settings.updatePolicy,
      label: grant.subscription
        ? SUBSCRIPTION_UPDATES_LABEL
        : updatePolicyLabels[settings.updatePolicy],
    },
    platforms,
    guide: settings.guide
      ? {
          html: renderMarkdown(settings.guide, { image: isGuideImage(deps, product.id) }),
          updatedAt: (settings.guideUpdatedAt ?? new Date(0)).toISOString(),
        }
      : null,
    licenceKey,
    traceId: grant.purchaseId,
    versionMails: !out,
  };
}

/** The version a grant may download now, or the refusal: 404 unknown, 403 ended or not covered. */
async function offeredVersion(
  deps: AppDeps,
  grant: Grant,
  productId: string,
  versionId: string,
): Promise<repo.VersionRow> {
  const db = deps.database.db;
  const version = await repo.versionOf(db, productId, versionId);
  if (!version || !version.publishedAt) throw versionNotFound();
  if (grant.ended) throw endedError(grant.ended);
  const first = firstReleases(
    (await repo.versionsOf(db, productId)).filter((v) => v.platform === version.platform),
  );
  if (!covers(grant, version, first.get(version.platform) ?? null))
    throw new AppError('forbidden', m.outsideUpdates);
  return version;
}

export async function downloadLink(
  deps: AppDeps,
  userId: string,
  productId: string,
  versionId: string,
) {
  await deps.limiter.consume([{ rule: rules.downloadUser, key: userId }]);
  const { grant } = await loadOwned(deps, userId, productId);
  const version = await offeredVersion(deps, grant, productId, versionId);
  const expiresAt = new Date(Date.now() + DOWNLOAD_LINK_SECONDS * 1000);
  if (version.link) {
    // A shared study: the link is the delivery; opening it counts as a download.
    await countDownload(deps, userId, version.id);
    return { url: version.link, expiresAt: expiresAt.toISOString(), fileName: version.version };
  }
  const query = signDownload(deps.config.STORAGE_SECRET, {
    versionId: version.id,
    userId,
    exp: Math.floor(expiresAt.getTime() / 1000),
  });
  return {
    url: `/api/v1/downloads/${encodeURIComponent(version.id)}?${query}`,
    expiresAt: expiresAt.toISOString(),
    fileName: version.fileName!,
  };
}

async function countDownload(deps: AppDeps, userId: string, versionId: string) {
  await deps.database.db.execute(sql`insert into deliverable_downloads (user_id, version_id, count)
    values (${userId}, ${versionId}, 1)
    on conflict (user_id, version_id) do update set count = deliverable_downloads.count + 1,
      last_at = now()`);
}

/** The text added to a traced archive: who bought it, which purchase, what and when. */
export function licenceText(input: {
  buyer: string;
  purchaseId: string;
  product: string;
  version: string;
  platform: string;
  at: Date;
}): string {
  return [
    `${input.product}, version ${input.version} for ${input.platform}`,
    '',
    `Licensed to: ${input.buyer}`,
    `Purchase: ${input.purchaseId}`,
    `Downloaded: ${input.at.toISOString()}`,
    '',
    'This copy was bought on Tradeshelf for the buyer named above and is for their use only.',
    'The vendor can find this purchase by its id in Sales.',
    '',
  ].join('\r\n');
}

/**
 * Serves a signed download link: the signature and expiry first (403, `linkExpired`), then access
 * again (it may have ended since the link was made), then the bytes from storage — a ZIP with
 * `LICENSE-<purchase id>.txt` added. Counted per buyer, rate-limited.
 */
export async function serveDownload(
  deps: AppDeps,
  versionId: string,
  query: Record<string, unknown>,
  headers: { range?: string; 'if-range'?: string },
  reply: FastifyReply,
) {
  const claim = readDownload(deps.config.STORAGE_SECRET, versionId, query);
  if (!claim || claim.exp * 1000 < Date.now()) throw new AppError('forbidden', m.linkExpired);
  const db = deps.database.db;
  const found = await repo.versionById(db, claim.versionId);
  if (!found || !found.storageKey) throw versionNotFound();
  const { product, grant } = await loadOwned(deps, claim.userId, found.productId);
  const version = await offeredVersion(deps, grant, found.productId, found.id);
  await deps.limiter.consume([{ rule: rules.downloadUser, key: claim.userId }]);
  // One link always serves the same bytes (the traced text is dated when the link was made), so a
  // broken download resumes with `Range` and `If-Range` while the link lasts.
  const madeAt = new Date((claim.exp - DOWNLOAD_LINK_SECONDS) * 1000);
  const traced =
    version.zipDirOffset !== null && /\.zip$/i.test(version.fileName ?? '')
      ? tracedZip(
          deps.storage,
          version.storageKey!,
          { offset: version.zipDirOffset, size: version.zipDirSize!, entries: version.zipEntries! },
          `LICENSE-${grant.purchaseId}.txt`,
          licenceText({
            buyer: (await contactsOf(db, [claim.userId])).get(claim.userId)?.username ?? 'a buyer',
            purchaseId: grant.purchaseId,
            product: product.title,
            version: version.version,
            platform: deliverablePlatformLabels[version.platform],
            at: madeAt,
          }),
          madeAt,
        )
      : null;
  const size = traced ? traced.length : version.sizeBytes!;
  const etag = traced ? `"${version.id}-${claim.exp}"` : `"${version.id}"`;
  const range = byteRange(headers, size, { etag });
  // A download counts once, at its first byte: resuming it is not another download.
  if (range.kind === 'whole' || (range.kind === 'part' && range.start === 0))
    await countDownload(deps, claim.userId, version.id);
  void reply
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', attachmentDisposition(version.fileName!))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('accept-ranges', 'bytes')
    .header('etag', etag);
  if (range.kind === 'unsatisfiable') return unsatisfiable(reply, size);
  const part = range.kind === 'part' ? range : undefined;
  const body = traced
    ? traced.stream(part)
    : await deps.storage.getStream(version.storageKey!, part);
  if (part) return sendPart(reply, part, size, body);
  return reply.header('content-length', size).send(body);
}

export async function unsubscribe(deps: AppDeps, token: string) {
  const claim = readUnsubscribe(deps.config.STORAGE_SECRET, token);
  // As the saved-search link: a link that names nothing is not found, not a form to correct.
  if (!claim) throw new AppError('not_found', m.unsubscribeInvalid);
  await deps.database.db.execute(sql`insert into version_mail_opt_outs (user_id, product_id)
    values (${claim.userId}, ${claim.productId}) on conflict do nothing`);
  return { message: m.unsubscribed };
}

/** The signed-in owner's own switch for one product's new-version mails. */
export async function setVersionMails(
  deps: AppDeps,
  userId: string,
  productId: string,
  enabled: boolean,
) {
  // Only an owner has mails to turn on or off: anyone else gets the 404 the library gives.
  await loadOwned(deps, userId, productId);
  const db = deps.database.db;
  if (enabled)
    await db.execute(sql`delete from version_mail_opt_outs
      where user_id = ${userId} and product_id = ${productId}`);
  else
    await db.execute(sql`insert into version_mail_opt_outs (user_id, product_id)
      values (${userId}, ${productId}) on conflict do nothing`);
  return { versionMails: enabled, message: enabled ? m.subscribed : m.unsubscribed };
}
