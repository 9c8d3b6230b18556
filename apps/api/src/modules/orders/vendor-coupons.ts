// Use cases: a vendor's coupons (list, create, replace, delete or deactivate).
import {
  couponProblems,
  vendorSalesMessages as m,
  type CouponState,
  type CouponValues,
  type VendorCoupon,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AppDeps } from '../../deps.ts';
import { newId } from '../../lib.ts';
import { cursorField, cursorKind, pageOf, timeKey } from '../../platform/cursor.ts';
import { AppError } from '../../platform/errors.ts';
import { itemSummaries, vendorProductRefs } from '../catalog/index.ts';
import { couponScopeIds, one, rows, type CouponRow } from './repository.ts';

interface VendorCouponRow extends CouponRow {
  created_at: Date | string;
  created_key: string;
}

const SELECT = sql`select c.*, ${timeKey(sql`c.created_at`)} as created_key, ${couponScopeIds}
  from coupons c`;

/** A coupon's place in the newest-first list. */
const COUPON_CURSOR = cursorKind('coupon', [cursorField.time, cursorField.id]);

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function stateOf(c: VendorCouponRow, now = Date.now()): CouponState {
  if (!c.is_active) return 'inactive';
  if (c.starts_at && new Date(c.starts_at).getTime() > now) return 'scheduled';
  if (c.expires_at && new Date(c.expires_at).getTime() <= now) return 'expired';
  if (c.max_redemptions !== null && c.redemptions >= c.max_redemptions) return 'used_up';
  return 'active';
}

async function present(db: Tx, found: VendorCouponRow[]): Promise<VendorCoupon[]> {
  const titles = await itemSummaries(
    db,
    found.flatMap((c) => c.scope_ids.map((id) => ({ type: 'product' as const, id }))),
  );
  return found.map((c) => {
    const scope = c.scope_ids;
    return {
      id: c.id,
      code: c.code,
      type: c.type,
      percentOff: c.type === 'percent' ? c.percent_off : null,
      amountOff:
        c.type === 'amount' && c.amount_off !== null
          ? { amount: c.amount_off, currency: c.currency ?? 'usd' }
          : null,
      duration: c.duration,
      scope: scope.length ? 'products' : 'all',
      products: scope
        .map((id) => ({ id, title: titles.get(`product:${id}`)?.title ?? '' }))
        .sort((a, b) => a.title.localeCompare(b.title, 'en')),
      startsAt: iso(c.starts_at),
      expiresAt: iso(c.expires_at),
      maxRedemptions: c.max_redemptions,
      maxPerBuyer: c.max_per_buyer,
      redemptions: c.redemptions,
      isActive: c.is_active,
      state: stateOf(c),
      createdAt: iso(c.created_at)!,
    };
  });
}

const notFound = () => new AppError('not_found', m.couponNotFound);

async function ownCoupon(db: Tx, vendorId: string, id: string, lock = false) {
  const found = await one<VendorCouponRow>(
    db,
    sql`${SELECT} where c.id = ${id} and c.vendor_id = ${vendorId} ${lock ? sql`for update of c` : sql``}`,
  );
  if (!found) throw notFound();
  return found;
}

/** How many of the vendor's products a coupon's scope offers (by title). */
const PRODUCT_OPTIONS = 500;

export async function listVendorCoupons(
  deps: AppDeps,
  vendorId: string,
  q: { limit: number; cursor?: string | undefined },
): Promise<{
  coupons: VendorCoupon[];
  nextCursor: string | null;
  products: { id: string; title: string; isActive: boolean }[];
}> {
  const db = deps.database.db;
  let after = sql`true`;
  if (q.cursor) {
    const [at, id] = deps.cursors.decode(COUPON_CURSOR, q.cursor);
    after = sql`(c.created_at, c.id) < (${at}::timestamptz, ${id})`;
  }
  const found = await rows<VendorCouponRow>(
    db,
    sql`${SELECT} where c.vendor_id = ${vendorId} and ${after}
      order by c.created_at desc, c.id desc limit ${q.limit + 1}`,
  );
  const { page, nextCursor } = pageOf(found, q.limit, (last) =>
    deps.cursors.encode(COUPON_CURSOR, [last.created_key, last.id]),
  );
  return {
    coupons: await present(db, page),
    nextCursor,
    products: (await vendorProductRefs(db, vendorId, { limit: PRODUCT_OPTIONS })).products.map(
      (p) => ({ id: p.id, title: p.title, isActive: p.isActive }),
    ),
  };
}

/**
 * How the fields go together (the contract's rules, as the web form checks them), then the chosen
 * products must be this vendor's: 400 or 422 naming the field otherwise.
 */
async function checkScope(db: Tx, vendorId: string, input: CouponValues): Promise<string[]> {
  const problems = couponProblems(input);
  const first = Object.values(problems)[0];
  if (first) throw new AppError('validation_failed', first, problems);
  if (input.scope === 'all') return [];
  const ids = [...new Set(input.productIds)];
  const found = await itemSummaries(
    db,
    ids.map((id) => ({ type: 'product' as const, id })),
  );
  if (ids.some((id) => found.get(`product:${id}`)?.vendorId !== vendorId))
    throw new AppError('business_rule', m.couponProductUnknown, {
      productIds: m.couponProductUnknown,
    });
  return ids;
}

const taken = () => new AppError('conflict', m.couponCodeTaken, { code: m.couponCodeTaken });

async function writeScope(tx: Tx, couponId: string, productIds: string[]): Promise<void> {
  await tx.execute(sql`delete from coupon_products where coupon_id = ${couponId}`);
  if (productIds.length)
    await tx.execute(sql`insert into coupon_products (coupon_id, product_id)
      values ${sql.join(
        productIds.map((p) => sql`(${couponId}, ${p})`),
        sql`, `,
      )}`);
}

const fields = (c: CouponValues) => ({
  percent: c.type === 'percent' ? c.percentOff : null,
  amount: c.type === 'amount' ? c.amountOff : null,
  currency: c.type === 'amount' ? c.currency : null,
});

/**
 * What a create and an update share: the scope checked, the row written by `write` with its scope in
 * one transaction, a taken code answered 409, and the coupon as the list shows it.
 */
async function saveCoupon(
  deps: AppDeps,
  vendorId: string,
  id: string,
  input: CouponValues,
  write: (tx: Tx, f: ReturnType<typeof fields>) => Promise<void>,
): Promise<VendorCoupon> {
  const db = deps.database.db;
  const scope = await checkScope(db, vendorId, input);
  try {
    await db.transaction(async (tx) => {
      await write(tx, fields(input));
      await writeScope(tx, id, scope);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
  const [coupon] = await present(db, [await ownCoupon(db, vendorId, id)]);
  return coupon!;
}

export function createVendorCoupon(
  deps: AppDeps,
  vendorId: string,
  input: CouponValues,
): Promise<VendorCoupon> {
  const id = newId('cpn');
  return saveCoupon(deps, vendorId, id, input, async (tx, f) => {
    await tx.execute(sql`insert into coupons (id, vendor_id, code, type, percent_off, amount_off, currency,
        duration, starts_at, expires_at, max_redemptions, max_per_buyer, is_active)
      values (${id}, ${vendorId}, ${input.code}, ${input.type}, ${f.percent}, ${f.amount}, ${f.currency},
        ${input.duration}, ${input.startsAt}, ${input.expiresAt}, ${input.maxRedemptions},
        ${input.maxPerBuyer}, ${input.isActive})`);
  });
}

/**
 * Replaces a coupon's settings under its row lock, the lock checkout's redemption takes too, so a
 * limit lowered at the same time as a redemption is checked against the count it leaves.
 */
export function updateVendorCoupon(
  deps: AppDeps,
  vendorId: string,
  id: string,
  input: CouponValues,
): Promise<VendorCoupon> {
  return saveCoupon(deps, vendorId, id, input, async (tx, f) => {
    const current = await ownCoupon(tx, vendorId, id, true);
    if (input.maxRedemptions !== null && input.maxRedemptions < current.redemptions)
      throw new AppError('business_rule', m.couponLimitBelowUsed, {
        maxRedemptions: m.couponLimitBelowUsed,
      });
    await tx.execute(sql`update coupons set code = ${input.code}, type = ${input.type},
        percent_off = ${f.percent}, amount_off = ${f.amount}, currency = ${f.currency},
        duration = ${input.duration}, starts_at = ${input.startsAt}, expires_at = ${input.expiresAt},
        max_redemptions = ${input.maxRedemptions}, max_per_buyer = ${input.maxPerBuyer},
        is_active = ${input.isActive}, product_id = null, updated_at = now()
      where id = ${id}`);
  });
}

/** Deletes a coupon no order ever used; one that was used is deactivated, so orders keep it. */
export async function deleteVendorCoupon(
  deps: AppDeps,
  vendorId: string,
  id: string,
): Promise<{ deleted: boolean; coupon: VendorCoupon | null; message: string }> {
  const db = deps.database.db;
  const deleted = await db.transaction(async (tx) => {
    await ownCoupon(tx, vendorId, id, true);
    const used = await one<{ n: number }>(
      tx,
      sql`select count(*)::int as n from purchases where coupon_id = ${id}`,
    );
    if (used && used.n > 0) {
      await tx.execute(
        sql`update coupons set is_active = false, updated_at = now() where id = ${id}`,
      );
      return false;
    }
    await tx.execute(sql`delete from coupons where id = ${id}`);
    return true;
  });
  if (deleted) return { deleted, coupon: null, message: m.couponDeleted };
  const [coupon] = await present(db, [await ownCoupon(db, vendorId, id)]);
  return { deleted, coupon: coupon!, message: m.couponDeactivated };
}
