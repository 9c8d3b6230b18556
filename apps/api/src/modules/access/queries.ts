// What other modules ask of entitlements: a purchase's, and a buyer's live access.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { DeliveryKind } from '../../events/types.ts';

export type EntitlementKind = 'access' | DeliveryKind;

export interface EntitlementView {
  id: string;
  purchaseId: string;
  productId: string;
  kind: EntitlementKind;
  status: 'active' | 'ended';
  endsAt: Date | null;
  endedReason: string | null;
}

interface Row extends Record<string, unknown> {
  id: string;
  purchase_id: string;
  product_id: string;
  kind: EntitlementKind;
  status: 'active' | 'ended';
  ends_at: Date | string | null;
  ended_reason: string | null;
}

const view = (r: Row): EntitlementView => ({
  id: r.id,
  purchaseId: r.purchase_id,
  productId: r.product_id,
  kind: r.kind,
  status: r.status,
  endsAt: r.ends_at === null ? null : new Date(r.ends_at),
  endedReason: r.ended_reason,
});

/** The entitlements of each purchase, in one query. */
export async function entitlementsOfPurchases(
  db: Tx,
  purchaseIds: readonly string[],
): Promise<EntitlementView[]> {
  if (!purchaseIds.length) return [];
  const found = await db.execute<Row>(sql`
    select id, purchase_id, product_id, kind, status, ends_at, ended_reason from entitlements
    where purchase_id = any(${sql.param([...purchaseIds])}::text[])`);
  return found.rows.map(view);
}

/** The products a purchase gives (or gave) access to, and what it delivers beyond access. */
export async function grantsOf(
  db: Tx,
  purchaseId: string,
): Promise<{ productIds: string[]; deliveries: DeliveryKind[] }> {
  const found = await db.execute<{ product_id: string; kind: EntitlementKind }>(sql`
    select product_id, kind from entitlements where purchase_id = ${purchaseId}
    order by product_id, kind`);
  const productIds = found.rows.filter((r) => r.kind === 'access').map((r) => r.product_id);
  const deliveries = new Set(found.rows.flatMap((r) => (r.kind === 'access' ? [] : [r.kind])));
  return { productIds, deliveries: [...deliveries].sort() };
}

/**
 * The buyer's live `access` entitlements to any of `productIds`. Ended, refunded, disputed and lapsed
 * access is not here: those end the entitlement (or pass `ends_at`).
 */
export async function liveAccess(
  db: Tx,
  userId: string,
  productIds: readonly string[],
): Promise<EntitlementView[]> {
  if (!productIds.length) return [];
  const found = await db.execute<Row>(sql`
    select id, purchase_id, product_id, kind, status, ends_at, ended_reason from entitlements
    where user_id = ${userId} and kind = 'access' and status = 'active'
      and (ends_at is null or ends_at > now())
      and product_id = any(${sql.param([...productIds])}::text[])`);
  return found.rows.map(view);
}

/** A live course enrolment: the entitlement, and when it started (drip counts from here). */
export interface Enrolment {
  entitlementId: string;
  purchaseId: string;
  productId: string;
  startedAt: Date;
  endsAt: Date | null;
}

/**
 * The buyer's live `course_enrolment` entitlements, oldest first (all of them, or those to
 * `productIds`). Refunded, disputed and lapsed enrolments are not here.
 */
export async function liveEnrolments(
  db: Tx,
  userId: string,
  productIds?: readonly string[],
): Promise<Enrolment[]> {
  if (productIds && !productIds.length) return [];
  return enrolments(
    db,
    sql`user_id = ${userId}
      ${productIds ? sql`and product_id = any(${sql.param([...productIds])}::text[])` : sql``}`,
    sql`order by created_at, id`,
  );
}

/** Every live enrolment in a product (a course's drip edit keeps what already opened). */
export async function productEnrolments(db: Tx, productId: string): Promise<Enrolment[]> {
  return enrolments(db, sql`product_id = ${productId}`);
}

/** Live (active, unexpired) `course_enrolment` entitlements meeting `where`. */
async function enrolments(db: Tx, where: SQL, orderBy: SQL = sql``): Promise<Enrolment[]> {
  const found = await db.execute<{
    id: string;
    purchase_id: string;
    product_id: string;
    created_at: Date | string;
    ends_at: Date | string | null;
  }>(sql`
    select id, purchase_id, product_id, created_at, ends_at from entitlements
    where ${where} and kind = 'course_enrolment' and status = 'active'
      and (ends_at is null or ends_at > now())
    ${orderBy}`);
  return found.rows.map((r) => ({
    entitlementId: r.id,
    purchaseId: r.purchase_id,
    productId: r.product_id,
    startedAt: new Date(r.created_at),
    endsAt: r.ends_at === null ? null : new Date(r.ends_at),
  }));
}

/** A user's `access` entitlements, live and ended, oldest first (TradingView access, ADR 034). */
export async function accessOf(
  db: Tx,
  userId: string,
): Promise<Array<EntitlementView & { createdAt: Date }>> {
  const found = await db.execute<Row & { created_at: Date | string }>(sql`
    select id, purchase_id, product_id, kind, status, ends_at, ended_reason, created_at
    from entitlements where user_id = ${userId} and kind = 'access'
    order by created_at, id`);
  return found.rows.map((r) => ({ ...view(r), createdAt: new Date(r.created_at) }));
}

/** Who holds (or held) access to any of `productIds`. */
export async function accessHolders(db: Tx, productIds: readonly string[]): Promise<string[]> {
  if (!productIds.length) return [];
  const found = await db.execute<{ user_id: string }>(sql`
    select distinct user_id from entitlements
    where kind = 'access' and product_id = any(${sql.param([...productIds])}::text[])`);
  return found.rows.map((r) => r.user_id);
}

/**
 * Every `access` entitlement the buyer has had to one product, live or ended (downloads say why
 * they ended), newest first.
 */
export async function accessHistory(
  db: Tx,
  userId: string,
  productId: string,
): Promise<EntitlementView[]> {
  const found = await db.execute<Row>(sql`
    select id, purchase_id, product_id, kind, status, ends_at, ended_reason from entitlements
    where user_id = ${userId} and kind = 'access' and product_id = ${productId}
    order by created_at desc, id desc`);
  return found.rows.map(view);
}

/** The users with live access to a product, each with the purchases that give it. */
export async function liveHolders(
  db: Tx,
  productId: string,
): Promise<Array<{ userId: string; purchaseIds: string[] }>> {
  const found = await db.execute<{ user_id: string; purchase_ids: string[] }>(sql`
    select user_id, array_agg(purchase_id order by purchase_id) as purchase_ids from entitlements
    where kind = 'access' and product_id = ${productId} and status = 'active'
      and (ends_at is null or ends_at > now())
    group by user_id order by user_id`);
  return found.rows.map((r) => ({ userId: r.user_id, purchaseIds: r.purchase_ids }));
}

/** Whether buying the product gives Discord roles (its vendor bound it to a server's roles). */
export async function givesDiscordRoles(db: Tx, productId: string): Promise<boolean> {
  const found = await db.execute<{ gives: boolean }>(sql`select exists (select 1
    from community_bindings where product_id = ${productId}
      and jsonb_array_length(roles) > 0) as gives`);
  return found.rows[0]?.gives ?? false;
}

/** The server and roles a product is bound to (ADR 030), or null. */
export async function bindingOf(
  db: Tx,
  productId: string,
): Promise<{
  guildId: string;
  guildName: string;
  roles: Array<{ id: string; name: string }>;
} | null> {
  const found = await db.execute<{
    guild_id: string;
    guild_name: string;
    roles: Array<{ id: string; name: string }>;
  }>(
    sql`select guild_id, guild_name, roles from community_bindings where product_id = ${productId}`,
  );
  const b = found.rows[0];
  return b ? { guildId: b.guild_id, guildName: b.guild_name, roles: b.roles } : null;
}

/**
 * Where the buyer's Discord role for a product stands: whether they linked Discord, and the
 * delivery state of their live role entitlement (null: none live).
 */
export async function discordRoleState(
  db: Tx,
  userId: string,
  productId: string,
): Promise<{ linked: boolean; state: string | null }> {
  const found = await db.execute<{ linked: boolean; state: string | null }>(sql`
    select exists (select 1 from discord_links where user_id = ${userId}) as linked,
      (select coalesce(d.state, 'granting') from entitlements e
        left join access_deliveries d on d.entitlement_id = e.id
        where e.user_id = ${userId} and e.product_id = ${productId} and e.kind = 'discord_role'
          and e.status = 'active' and (e.ends_at is null or e.ends_at > now())
        order by (d.state = 'active') desc nulls last limit 1) as state`);
  const r = found.rows[0];
  return { linked: Boolean(r?.linked), state: r?.state ?? null };
}
