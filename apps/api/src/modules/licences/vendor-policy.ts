// Use cases: the vendor's licence terms for its apps — maximum activations and binding preset — the
// signing keys (shown, rotated) and the apps' builds (ADR 044). No storefront: 403; an app of
// another vendor, or a product that is not an app: 404.
import {
  LICENCE_DEFAULT_MAX_ACTIVATIONS,
  vendorLicenceMessages as m,
  type LicenceBinding,
  type LicencePolicyBody,
  type SigningKey,
  type VendorLicenceApp,
  type VendorLicencePolicy,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import type { FileReader } from '../../platform/multipart.ts';
import {
  vendorProductCursor,
  vendorProductOfKind,
  vendorProductPage,
  vendorSummaries,
  type VendorProductRow,
} from '../catalog/index.ts';
import { latestFiles, publish, publishedFiles, uploadDeliverable } from '../deliverables/index.ts';
import { statusSql } from './queries.ts';
import { publicKeyPemOfRaw, rotateVendorKey, vendorKey } from './signing.ts';

async function ownApp(deps: AppDeps, vendorId: string, productId: string) {
  const product = await vendorProductOfKind(deps.database.db, vendorId, productId, 'app');
  if (!product) throw new AppError('not_found', m.appNotFound);
  return { vendorId, product };
}

interface AppRow extends Record<string, unknown> {
  product_id: string;
  max_activations: number | null;
  binding: LicenceBinding | null;
  issued: number;
  active: number;
  activations: number;
}

/** Terms, counts and the current build of each app, in one statement. */
async function appViews(
  deps: AppDeps,
  products: readonly VendorProductRow[],
): Promise<VendorLicenceApp[]> {
  if (!products.length) return [];
  const ids = sql.param(products.map((p) => p.id));
  const found = await deps.database.db.execute<AppRow>(sql`
    select p.id as product_id, s.max_activations, s.binding,
      coalesce(c.issued, 0)::int as issued, coalesce(c.active, 0)::int as active,
      coalesce(c.activations, 0)::int as activations
    from unnest(${ids}::text[]) as p(id)
    left join licence_products s on s.product_id = p.id
    left join lateral (
      select count(*) as issued, count(*) filter (where ${statusSql} = 'active') as active,
        (select count(*) from licence_activations a join licences x on x.id = a.licence_id
          where x.product_id = p.id) as activations
      from licences l where l.product_id = p.id) c on true`);
  const rows = new Map(found.rows.map((r) => [r.product_id, r]));
  // An app's build is its newest current deliverable (ADR 053).
  const builds = await latestFiles(
    deps.database.db,
    products.map((p) => p.id),
  );
  return products.map((p) => {
    const r = rows.get(p.id)!;
    const b = builds.get(p.id);
    return {
      productId: p.id,
      title: p.title,
      slug: p.slug,
      isActive: p.isActive,
      maxActivations: r.max_activations ?? LICENCE_DEFAULT_MAX_ACTIVATIONS,
      binding: r.binding,
      counts: { issued: r.issued, active: r.active, activations: r.activations },
      build: b
        ? {
            version: b.version,
            fileName: b.fileName,
            sizeBytes: b.sizeBytes,
            sha256: b.sha256,
            publishedAt: b.publishedAt.toISOString(),
          }
        : null,
    };
  });
}

/** How many apps the pages before showed. */
const APPS_CURSOR = vendorProductCursor('licence-apps');

export async function vendorLicenceApps(
  deps: AppDeps,
  vendorId: string,
  page: { limit: number; cursor?: string | undefined },
) {
  const { products, nextCursor } = await vendorProductPage(deps, vendorId, APPS_CURSOR, {
    ...page,
    kinds: ['app'],
  });
  return { apps: await appViews(deps, products), nextCursor };
}

/** The vendor's keys, the current one first, with how many licences each signs for. */
export async function signingKeys(deps: AppDeps, vendorId: string): Promise<SigningKey[]> {
  const db = deps.database.db;
  await vendorKey(deps, db, vendorId);
  const found = await db.execute<{
    key_id: string;
    public_key: string;
    created_at: Date | string;
    retired_at: Date | string | null;
    licences: number;
  }>(sql`
    select k.key_id, k.public_key, k.created_at, k.retired_at,
      (select count(*) from licences l where l.vendor_id = k.vendor_id
        and (l.signing_key_id = k.key_id or (k.retired_at is null and l.signing_key_id is null)))::int
        as licences
    from licence_vendor_keys k where k.vendor_id = ${vendorId}
    order by k.retired_at desc nulls first, k.created_at desc`);
  return found.rows.map((r) => ({
    keyId: r.key_id,
    algorithm: 'Ed25519' as const,
    publicKeyPem: publicKeyPemOfRaw(r.public_key),
    publicKeyRaw: r.public_key,
    createdAt: new Date(r.created_at).toISOString(),
    retiredAt: r.retired_at ? new Date(r.retired_at).toISOString() : null,
    licences: r.licences,
  }));
}

async function policyView(
  deps: AppDeps,
  vendorId: string,
  product: VendorProductRow,
): Promise<VendorLicencePolicy> {
  const [app, keys, vendors, builds] = await Promise.all([
    appViews(deps, [product]),
    signingKeys(deps, vendorId),
    vendorSummaries(deps.database.db, [vendorId]),
    publishedFiles(deps.database.db, product.id, 50),
  ]);
  return {
    app: app[0]!,
    vendorUrl: vendors.get(vendorId)?.vendorUrl ?? '',
    keys,
    builds: builds.map((b) => ({
      id: b.id,
      version: b.version,
      fileName: b.fileName,
      sizeBytes: b.sizeBytes,
      sha256: b.sha256,
      publishedAt: b.publishedAt.toISOString(),
    })),
  };
}

export async function vendorLicencePolicy(deps: AppDeps, vendorId: string, productId: string) {
  const { product } = await ownApp(deps, vendorId, productId);
  return policyView(deps, vendorId, product);
}

/**
 * New terms apply to the app's licences from their next activation (ADR 044): the product's row and
 * every licence of it change in one transaction. Devices already activated stay, even above a
 * lowered maximum or on another preset; only new activations meet the new terms.
 */
export async function updateLicencePolicy(
  deps: AppDeps,
  vendorId: string,
  productId: string,
  body: LicencePolicyBody,
) {
  const { product } = await ownApp(deps, vendorId, productId);
  await deps.database.db.transaction(async (tx) => {
    await tx.execute(sql`insert into licence_products (product_id, max_activations, binding)
      values (${product.id}, ${body.maxActivations}, ${body.binding})
      on conflict (product_id) do update set max_activations = excluded.max_activations,
        binding = excluded.binding, updated_at = now()`);
    await tx.execute(sql`update licences set max_activations = ${body.maxActivations},
        binding = ${body.binding}, updated_at = now()
      where product_id = ${product.id}
        and (max_activations <> ${body.maxActivations} or binding is distinct from ${body.binding})`);
  });
  return policyView(deps, vendorId, product);
}

export async function rotateLicenceKey(deps: AppDeps, vendorId: string) {
  await deps.database.db.transaction((tx) => rotateVendorKey(deps, tx, vendorId));
  return { keys: await signingKeys(deps, vendorId) };
}

/**
 * A new build is a deliverable for Windows (ADR 053): uploaded through the deliverables module's
 * checked, streamed path and published at once, so it is the app's current build.
 */
export async function uploadLicenceBuild(
  deps: AppDeps,
  userId: string,
  vendorId: string,
  productId: string,
  version: string,
  read: FileReader,
) {
  const app = await ownApp(deps, vendorId, productId);
  const { versionId } = await uploadDeliverable(
    deps,
    userId,
    vendorId,
    app.product.id,
    { platform: 'windows', version },
    read,
  );
  await publish(deps, vendorId, app.product.id, versionId, '');
  return policyView(deps, app.vendorId, app.product);
}
