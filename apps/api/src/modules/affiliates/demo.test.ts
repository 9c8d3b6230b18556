import {
  affiliatesRoutes,
  ordersRoutes,
  vendorProductsRoutes,
  vendorSalesRoutes,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { overview } from '../../../test/factories/affiliates.ts';
import { useDemoApp } from '../../../test/demo.ts';
import { findAccountByEmail } from '../users/index.ts';
import { userToken } from '../../../test/factories/users.ts';

// The demo affiliate on first start: months of referred sales, some on hold and more than the
// minimum available, a connected sandbox account, so the dashboard and a payout work at once.

const t = useDemoApp();

it('gives the demo affiliate a dashboard with pending and available commission, and a payout', async () => {
  const affiliate = (await findAccountByEmail(t.database.db, 'affiliate@demo.tradeshelf.test'))!;
  const token = await userToken(t, affiliate, ['buyer', 'affiliate']);
  const seen = await overview(t, token);
  expect(seen.referrals.length).toBe(36);
  const states = new Set(seen.referrals.map((r: { state: string }) => r.state));
  expect(states).toEqual(new Set(['pending', 'available', 'clawed_back']));
  expect(seen.stats).toMatchObject({
    payoutAccount: 'ready',
    canRequestPayout: true,
    payoutBlockedReason: null,
    holdDays: 30,
  });
  expect(seen.stats.pendingBalance.amount).toBeGreaterThan(0);
  expect(seen.stats.availableBalance.amount).toBeGreaterThan(seen.stats.minimumPayout.amount);
  expect(seen.stats.totalWithdrawn.amount).toBe(15_000);
  expect(seen.stats.clicks).toBeGreaterThan(300);
  expect(
    seen.stats.earnings.filter((m: { amount: number }) => m.amount > 0).length,
  ).toBeGreaterThanOrEqual(6);
  expect(seen.withdrawals.map((w: { status: string }) => w.status)).toEqual(['failed', 'paid']);

  const invites = await t.call(affiliatesRoutes.pendingInvites, { token });
  expect(invites.json().invitations).toMatchObject([
    { refId: 'options-owl-demo', vendorUrl: 'options-owl', commissionBps: 3000 },
  ]);
  const vendors = (await t.call(affiliatesRoutes.affiliateVendors, { token })).json().vendors;
  expect(vendors[0]).toMatchObject({ vendorUrl: 'alpha-edge', refId: 'demo-affiliate' });
  expect(vendors.some((v: { vendorUrl: string }) => v.vendorUrl === 'options-owl')).toBe(false);

  const available = seen.stats.availableBalance.amount;
  const paid = await t.call(affiliatesRoutes.requestPayout, { token });
  expect(paid.statusCode, paid.body).toBe(200);
  expect(paid.json().payout).toMatchObject({ status: 'paid', amount: { amount: available } });
  // Every ledger set sums to zero, the seeded ones included.
  const unbalanced = await t.database.db.execute(sql`select payment_ref from ledger_entries
    group by purchase_id, payment_ref having sum(amount) <> 0`);
  expect(unbalanced.rows).toEqual([]);
});

it('gives the demo vendor a workspace with sales to open and published products on first start', async () => {
  const vendor = (await findAccountByEmail(t.database.db, 'vendor@demo.tradeshelf.test'))!;
  const token = await t.deps.tokens.sign(
    { sub: vendor.id, email: vendor.email, roles: ['buyer', 'vendor'] },
    'tradeshelf:vendor',
  );
  const sales = await t.call(ordersRoutes.vendorSales, { token, query: { limit: '50' } });
  expect(sales.statusCode, sales.body).toBe(200);
  const list = sales.json().sales as Array<{ id: string; status: string }>;
  expect(list.length).toBeGreaterThanOrEqual(20);
  expect(new Set(list.map((s) => s.status))).toEqual(new Set(['paid', 'refunded']));
  const opened = await t.call(vendorSalesRoutes.vendorSale, { token, params: { id: list[0]!.id } });
  expect(opened.statusCode, opened.body).toBe(200);

  const products = await t.call(vendorProductsRoutes.vendorProducts, { token, query: {} });
  expect(products.statusCode, products.body).toBe(200);
  const statuses = (products.json().products as Array<{ title: string; status: string }>).map(
    (p) => p.status,
  );
  // Seeded products were published (the retired one is unpublished), none a never-published draft.
  expect(statuses).toContain('published');
  expect(statuses).not.toContain('draft');
});
