// Use case: a vendor sets up and edits their storefront (issue 19, ADR 041). The `vendors` row is
// created here, the first time the storefront is saved; becoming a vendor only adds the role.
import { bumpCatalogVersion, catalogChanged } from './catalog-changes.ts';
import {
  storefrontMessages as m,
  normaliseVendorUrl,
  reservedStorefrontName,
  validateVendorUrl,
  VENDOR_URL_RENAMES_MAX,
  vendorUrlMessages,
  type Storefront,
  type StorefrontInput,
  type VendorUrlAvailability,
  storefrontPath,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { imageFileUrl, presentImage } from '../../platform/images.ts';
import * as users from '../users/index.ts';
import { rows } from './repository.ts';

export interface StorefrontRow {
  id: string;
  user_id: string;
  vendor_url: string;
  display_name: string;
  bio: string;
  social_links: Record<string, string>;
  avatar_key: string | null;
  banner_key: string | null;
  created_at: Date | string;
  previous_urls: string[];
}

const taken = () =>
  new AppError('conflict', vendorUrlMessages.taken, { vendorUrl: vendorUrlMessages.taken });

/** The storefront's public path; lower case, as addresses are stored. */

/** Refuses anyone without the vendor role (403); answers nothing else. */
export async function requireVendorRole(deps: AppDeps, userId: string): Promise<void> {
  const account = await users.findAccountById(deps.database.db, userId);
  if (!account || !users.rolesOf(account).includes('vendor'))
    throw new AppError('forbidden', m.vendorsOnly);
}

export async function storefrontRowOfUser(db: Tx, userId: string): Promise<StorefrontRow | null> {
  const found = await rows<StorefrontRow>(
    db,
    sql`select v.id, v.user_id, v.vendor_url, v.display_name, v.bio, v.social_links, v.avatar_key,
        v.banner_key, v.created_at,
        coalesce((select array_agg(a.url order by a.created_at desc) from vendor_url_aliases a
          where a.vendor_id = v.id), '{}') as previous_urls
      from vendors v where v.user_id = ${userId}`,
  );
  return found[0] ?? null;
}

export function presentStorefront(deps: AppDeps, r: StorefrontRow): Storefront {
  return {
    id: r.id,
    vendorUrl: r.vendor_url,
    path: storefrontPath(r.vendor_url),
    displayName: r.display_name,
    bio: r.bio,
    socialLinks: r.social_links,
    avatarUrl: imageFileUrl(deps.storage, r.avatar_key),
    avatar: presentImage(deps.storage, r.avatar_key),
    bannerUrl: imageFileUrl(deps.storage, r.banner_key),
    banner: presentImage(deps.storage, r.banner_key),
    previousUrls: r.previous_urls,
    renamesLeft: Math.max(0, VENDOR_URL_RENAMES_MAX - r.previous_urls.length),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export async function getStorefront(
  deps: AppDeps,
  userId: string,
): Promise<{ storefront: Storefront | null }> {
  await requireVendorRole(deps, userId);
  const row = await storefrontRowOfUser(deps.database.db, userId);
  return { storefront: row ? presentStorefront(deps, row) : null };
}

/** Whether another vendor holds the address, as their storefront or as an earlier one of theirs. */
async function heldByOther(db: Tx, vendorUrl: string, vendorId: string | null): Promise<boolean> {
  const found = await db.execute(sql`
    select 1 from vendors where lower(vendor_url) = ${vendorUrl} and id is distinct from ${vendorId}
    union all
    select 1 from vendor_url_aliases where lower(url) = ${vendorUrl} and vendor_id is distinct from ${vendorId}
    limit 1`);
  return found.rows.length > 0;
}

export async function vendorUrlAvailability(
  deps: AppDeps,
  userId: string,
  asked: string,
): Promise<VendorUrlAvailability> {
  await requireVendorRole(deps, userId);
  const vendorUrl = normaliseVendorUrl(asked);
  const own = await storefrontRowOfUser(deps.database.db, userId);
  if (own && own.vendor_url === vendorUrl)
    return { vendorUrl, available: true, message: vendorUrlMessages.yours };
  // One's own earlier address can be taken back, so the rules that bind new ones do not apply.
  const ownEarlier = own?.previous_urls.includes(vendorUrl) ?? false;
  const problem = ownEarlier ? null : validateVendorUrl(vendorUrl);
  if (problem) return { vendorUrl, available: false, message: problem };
  if (await heldByOther(deps.database.db, vendorUrl, own?.id ?? null))
    return { vendorUrl, available: false, message: vendorUrlMessages.taken };
  return { vendorUrl, available: true, message: vendorUrlMessages.available };
}

/**
 * Creates the storefront (and so the vendor) or updates it. A new address keeps the old one as a
 * redirect held by this vendor; taking back an earlier address drops that redirect. Two vendors
 * asking for one address at once: the unique index on `lower(vendor_url)` lets one win, the other
 * gets 409 with the field named.
 */
export async function saveStorefront(
  deps: AppDeps,
  userId: string,
  body: StorefrontInput,
): Promise<{ storefront: Storefront }> {
  await requireVendorRole(deps, userId);
  const db = deps.database.db;
  let version: number;
  try {
    version = await db.transaction(async (tx) => {
      // One save per vendor at a time: two tabs renaming at once cannot both keep the old address.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`storefront:${userId}`}))`);
      const own = await storefrontRowOfUser(tx, userId);
      // A new address must not be a reserved word; the one a storefront has (or had) it may keep.
      const ownAlready =
        own && (own.vendor_url === body.vendorUrl || own.previous_urls.includes(body.vendorUrl));
      const problem = ownAlready ? null : validateVendorUrl(body.vendorUrl);
      if (problem) throw new AppError('validation_failed', problem, { vendorUrl: problem });
      const nameProblem = reservedStorefrontName(body.displayName, own?.display_name ?? null);
      if (nameProblem) {
        throw new AppError('validation_failed', nameProblem, { displayName: nameProblem });
      }
      if (await heldByOther(tx, body.vendorUrl, own?.id ?? null)) throw taken();
      if (!own) {
        await tx.execute(sql`insert into vendors (id, user_id, vendor_url, display_name, bio, social_links)
          values (${newId('ven')}, ${userId}, ${body.vendorUrl}, ${body.displayName}, ${body.bio},
            ${JSON.stringify(body.socialLinks)}::jsonb)`);
        return bumpCatalogVersion(tx);
      }
      const renamed = own.vendor_url !== body.vendorUrl;
      if (renamed) {
        const takingBack = own.previous_urls.includes(body.vendorUrl);
        if (!takingBack && own.previous_urls.length >= VENDOR_URL_RENAMES_MAX)
          throw new AppError('business_rule', vendorUrlMessages.tooManyRenames, {
            vendorUrl: vendorUrlMessages.tooManyRenames,
          });
        await tx.execute(
          sql`delete from vendor_url_aliases where vendor_id = ${own.id} and lower(url) = ${body.vendorUrl}`,
        );
        await tx.execute(sql`insert into vendor_url_aliases (url, vendor_id)
          values (${own.vendor_url}, ${own.id})`);
      }
      await tx.execute(sql`update vendors set vendor_url = ${body.vendorUrl},
          display_name = ${body.displayName}, bio = ${body.bio},
          social_links = ${JSON.stringify(body.socialLinks)}::jsonb
        where id = ${own.id}`);
      // Its page, old addresses, products' and bundles' pages (they name it), search and home.
      return bumpCatalogVersion(tx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
  catalogChanged(deps, version);
  const row = await storefrontRowOfUser(db, userId);
  return { storefront: presentStorefront(deps, row!) };
}
