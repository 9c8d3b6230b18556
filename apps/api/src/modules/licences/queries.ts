// Use case: the buyer's licences as the apps page shows them.
import {
  LICENCE_RESETS_MAX,
  licenceEndedWords,
  type Licence,
  type LicenceBinding,
  type LicenceEventType,
  type LicenceStatus,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { itemSummaries } from '../catalog/index.ts';
import { latestFiles } from '../deliverables/index.ts';
import { licenceSealer, openKey } from './keys.ts';

/** A stored status read at a moment: an active licence whose end has passed is expired. */
export const statusSql = sql`case when l.status = 'active' and l.expires_at <= now() then 'expired' else l.status end`;

interface LicenceRow extends Record<string, unknown> {
  id: string;
  purchase_id: string | null;
  product_id: string;
  key_sealed: string;
  status: LicenceStatus;
  expires_at: Date | string | null;
  ended_reason: string | null;
  max_activations: number;
  binding: LicenceBinding | null;
  resets_used: number;
  issued_at: Date | string;
}

interface ActivationRow extends Record<string, unknown> {
  id: string;
  licence_id: string;
  name: string;
  binding: LicenceBinding;
  fingerprint: string;
  activated_at: Date | string;
  last_seen_at: Date | string;
}

interface EventRow extends Record<string, unknown> {
  licence_id: string;
  type: LicenceEventType;
  detail: string;
  at: Date | string;
}

const iso = (v: Date | string) => new Date(v).toISOString();

export const activationView = (a: ActivationRow) => ({
  id: a.id,
  name: a.name,
  binding: a.binding,
  fingerprint: a.fingerprint,
  activatedAt: iso(a.activated_at),
  lastSeenAt: iso(a.last_seen_at),
});

function messageOf(status: LicenceStatus, endedReason: string | null, expiresAt: string | null) {
  if (status === 'active') return expiresAt ? `Active until ${expiresAt.slice(0, 10)}.` : 'Active.';
  if (endedReason && licenceEndedWords[endedReason]) return licenceEndedWords[endedReason]!;
  return status === 'expired'
    ? `Expired${expiresAt ? ` on ${expiresAt.slice(0, 10)}` : ''}.`
    : 'Revoked.';
}

/** The buyer's licences, newest first (or the one named, if it is theirs). */
export async function licencesOf(
  deps: AppDeps,
  userId: string,
  licenceId: string | null = null,
  db: Tx = deps.database.db,
): Promise<Licence[]> {
  const rows = (
    await db.execute<LicenceRow>(sql`
      select l.id, l.purchase_id, l.product_id, l.key_sealed, ${statusSql} as status, l.expires_at,
        l.ended_reason, l.max_activations, l.binding, l.resets_used, l.issued_at
      from licences l
      where l.user_id = ${userId} and (${licenceId}::text is null or l.id = ${licenceId})
      order by l.issued_at desc, l.id`)
  ).rows;
  if (!rows.length) return [];
  const ids = sql.param(rows.map((r) => r.id));
  const productIds = [...new Set(rows.map((r) => r.product_id))];
  const readActivations = () =>
    db.execute<ActivationRow>(sql`select id, licence_id, name, binding, fingerprint, activated_at,
        last_seen_at from licence_activations where licence_id = any(${ids}::text[])
      order by activated_at, id`);
  const readEvents = () =>
    db.execute<EventRow>(sql`select licence_id, type, detail, at from (
        select e.*, row_number() over (partition by licence_id order by at desc, id desc) as n
        from licence_events e where licence_id = any(${ids}::text[])) e
      where n <= 20 order by at desc, id desc`);
  const readBuilds = () => latestFiles(db, productIds);
  const readSummaries = () =>
    itemSummaries(
      db,
      productIds.map((id) => ({ type: 'product' as const, id })),
    );
  // On the pool the reads run side by side; in a transaction (one connection) one after another.
  const [activations, events, builds, summaries] =
    db === deps.database.db
      ? await Promise.all([readActivations(), readEvents(), readBuilds(), readSummaries()])
      : [await readActivations(), await readEvents(), await readBuilds(), await readSummaries()];
  const sealer = licenceSealer(deps);
  return rows.map((r) => {
    const expiresAt = r.expires_at === null ? null : iso(r.expires_at);
    const summary = summaries.get(`product:${r.product_id}`);
    const build = builds.get(r.product_id);
    return {
      id: r.id,
      key: openKey(sealer, r.key_sealed) ?? '',
      status: r.status,
      message: messageOf(r.status, r.ended_reason, expiresAt),
      expiresAt,
      issuedAt: iso(r.issued_at),
      purchaseId: r.purchase_id,
      product: { id: r.product_id, slug: summary?.slug ?? '', title: summary?.title ?? '' },
      vendor: summary?.vendor ?? { vendorUrl: '', displayName: '' },
      binding: r.binding,
      maxActivations: r.max_activations,
      activations: activations.rows.filter((a) => a.licence_id === r.id).map(activationView),
      resetsLeft: Math.max(0, LICENCE_RESETS_MAX - r.resets_used),
      build: build
        ? {
            version: build.version,
            fileName: build.fileName,
            sizeBytes: build.sizeBytes,
            sha256: build.sha256,
            publishedAt: iso(build.publishedAt),
          }
        : null,
      history: events.rows
        .filter((e) => e.licence_id === r.id)
        .map((e) => ({ type: e.type, detail: e.detail, at: iso(e.at) })),
    };
  });
}

/** One of the buyer's licences; null when there is none or it is someone else's. */
export async function licenceOf(
  deps: AppDeps,
  userId: string,
  licenceId: string,
  db?: Tx,
): Promise<Licence | null> {
  return (await licencesOf(deps, userId, licenceId, db))[0] ?? null;
}

/** The key of the buyer's live licence for a product (the deliverables page shows it), or null. */
export async function licenceKeyOf(
  deps: AppDeps,
  userId: string,
  productId: string,
): Promise<string | null> {
  const mine = await licencesOf(deps, userId);
  return mine.find((l) => l.product.id === productId && l.status === 'active')?.key ?? null;
}
