import { membershipRoutes, ordersRoutes, plans, supportRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import {
  createPlatformPlans,
  createMember,
  type PlanProducts,
} from '../../../test/factories/membership.ts';
import {
  createBuyer,
  createCoupon,
  createReferral,
  ledgerOf,
  paySession,
  purchaseOfSession,
  sandboxPost,
} from '../../../test/factories/orders.ts';
import { createUser } from '../../../test/factories/users.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let planProducts: PlanProducts;
let vendor: Awaited<ReturnType<typeof createVendor>>;

beforeAll(async () => {
  // The demo fee: 5 % + $0.30. Premium's 3 % and Pro Plus's 5 % both fit under it.
  t = await startTestApp({ PLATFORM_FEE_BPS: '500', PLATFORM_FEE_FIXED: '30' });
  planProducts = await createPlatformPlans(t);
  vendor = await createVendor(t, { vendorUrl: 'member-pricing-vendor' });
});
afterAll(async () => {
  await t?.close();
});

type Buyer = Awaited<ReturnType<typeof createBuyer>>;

function checkout(buyer: Buyer, body: Record<string, unknown>, key?: string, vendorUrl?: string) {
  return t.call(ordersRoutes.checkoutProduct, {
    token: buyer.token,
    query: { vendorUrl: vendorUrl ?? vendor.vendorUrl },
    body,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });
}

async function buy(buyer: Buyer, body: Record<string, unknown>, vendorUrl?: string) {
  const res = await checkout(buyer, body, undefined, vendorUrl);
  expect(res.statusCode, res.body).toBe(201);
  const { sessionId } = res.json();
  await paySession(t, sessionId);
  return { sessionId, purchase: await purchaseOfSession(t, buyer, sessionId) };
}

/** Sums per entry type and account of one purchase's ledger, and its total (always zero). */
async function ledgerSums(purchaseId: string) {
  const lines = await ledgerOf(t, purchaseId);
  const by: Record<string, number> = {};
  for (const l of lines)
    by[`${l.entry_type}:${l.account_type}`] =
      (by[`${l.entry_type}:${l.account_type}`] ?? 0) + l.amount;
  return { by, total: lines.reduce((a, l) => a + l.amount, 0) };
}

const membership = async (buyer: { token: string }) => {
  const res = await t.call(membershipRoutes.membership, { token: buyer.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().membership;
};

describe('membership status', () => {
  it('is null without a plan, and the plan with its grants and renewal date after buying it', async () => {
    const buyer = await createBuyer(t);
    expect(await membership(buyer)).toBeNull();
    expect((await t.call(membershipRoutes.membership, {})).statusCode).toBe(401);

    const member = await createMember(t, planProducts, 'premium');
    const m = await membership(member);
    expect(m).toMatchObject({
      plan: 'premium',
      name: 'Premium',
      status: 'active',
      endsAt: null,
      purchaseId: member.planPurchaseId,
      vendorUrl: 'tradeshelf',
      grants: {
        memberDiscountPercent: plans.premium.memberDiscountPercent,
        savedSearches: plans.premium.savedSearches,
        alertMailsPerDay: plans.premium.alertMailsPerDay,
        supportReplyHours: plans.premium.supportReplyHours,
      },
      savedSearchCount: 0,
    });
    expect(Date.parse(m.renewsAt)).toBeGreaterThan(Date.now());
  });
});

describe('member pricing at checkout', () => {
  it('takes 3 % off for Premium, paid from the platform fee: the vendor nets what a non-member pays them', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Member Scanner', amount: 10_000 });
    const member = await createMember(t, planProducts, 'premium');
    const start = await checkout(member, { priceId: product.priceId });
    expect(start.statusCode, start.body).toBe(201);
    // The hosted checkout names the member price on the line and charges the member total.
    const page = await t.app.inject({ method: 'GET', url: new URL(start.json().url).pathname });
    expect(page.body).toContain('<td>Member Scanner (Premium member price)</td><td>$97.00</td>');
    expect(page.body).toMatch(/Due today.*\$97\.00/s);
    await paySession(t, start.json().sessionId);
    const purchase = await purchaseOfSession(t, member, start.json().sessionId);
    expect(purchase).toMatchObject({
      status: 'paid',
      subtotal: { amount: 10_000 },
      discount: { amount: 0 },
      memberPrice: { plan: 'premium', discount: { amount: 300, currency: 'usd' } },
      total: { amount: 9_700 },
      paid: { amount: 9_700 },
    });
    // The receipt says so.
    await expect
      .poll(() =>
        t.smtp.inbox
          .filter((m) => m.to.includes(member.email))
          .map((m) => m.raw.replace(/=\r?\n/g, ''))
          .find((raw) => raw.includes('Member Scanner')),
      )
      .toContain('Premium member price: -3.00 USD');
    // Fee on $100 is $5.30; the member's $3.00 comes out of it.
    const memberLedger = await ledgerSums(purchase.id);
    expect(memberLedger.by).toEqual({
      'sale:clearing': -9_700,
      'platform_fee:platform': 230,
      'vendor_share:vendor': 9_470,
    });
    expect(memberLedger.total).toBe(0);

    const other = await createBuyer(t);
    const { purchase: full } = await buy(other, { priceId: product.priceId });
    expect(full).toMatchObject({ total: { amount: 10_000 }, memberPrice: null });
    expect((await ledgerSums(full.id)).by).toEqual({
      'sale:clearing': -10_000,
      'platform_fee:platform': 530,
      'vendor_share:vendor': 9_470,
    });
  });

  it('takes 5 % for Pro Plus, never more than the fee, and leaves the affiliate commission whole', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Pro Plus Tool', amount: 10_000 });
    const affiliate = await createUser(t);
    const refId = await createReferral(t, vendor.id, affiliate.id, 2_000);
    const member = await createMember(t, planProducts, 'pro_plus');
    const { purchase } = await buy(member, { priceId: product.priceId, refId });
    expect(purchase).toMatchObject({
      total: { amount: 9_500 },
      memberPrice: { plan: 'pro_plus', discount: { amount: 500 } },
    });
    const { by, total } = await ledgerSums(purchase.id);
    expect(total).toBe(0);
    // As for a $100 sale without membership: commission 20 % of $100, vendor $100 − $5.30 − $20.
    expect(by).toEqual({
      'sale:clearing': -9_500,
      'platform_fee:platform': 30,
      'affiliate_commission:affiliate': 2_000,
      'vendor_share:vendor': 7_470,
    });
  });

  it('applies to every payment of a subscription: the first, each renewal and a trial conversion', async () => {
    const product = await createProduct(t, vendor.id, {
      title: 'Member Signals',
      extraPrices: [2_000],
    });
    const member = await createMember(t, planProducts, 'premium');
    const { sessionId, purchase } = await buy(member, {
      priceId: product.extraPriceIds[0],
    });
    expect(purchase).toMatchObject({
      total: { amount: 1_940 },
      memberPrice: { discount: { amount: 60 } },
      subscription: { renewalAmount: { amount: 1_940 } },
    });
    expect((await sandboxPost(t, `/sandbox/payments/${sessionId}/renew`)).statusCode).toBe(303);
    const lines = await ledgerOf(t, purchase.id);
    const sales = lines.filter((l) => l.entry_type === 'sale');
    expect(sales.map((l) => l.amount)).toEqual([-1_940, -1_940]);
    // Fee on $20 is $1.30 per payment; $0.60 of it is the member's.
    expect(lines.filter((l) => l.entry_type === 'platform_fee').map((l) => l.amount)).toEqual([
      70, 70,
    ]);
    expect(lines.filter((l) => l.entry_type === 'vendor_share').map((l) => l.amount)).toEqual([
      1_870, 1_870,
    ]);

    const trial = await createProduct(t, vendor.id, {
      title: 'Member Trial',
      extraPrices: [3_000],
      trialDays: 7,
    });
    const trialing = await buy(member, { priceId: trial.extraPriceIds[0] });
    expect(trialing.purchase).toMatchObject({ paid: { amount: 0 }, total: { amount: 2_910 } });
    expect(await ledgerOf(t, trialing.purchase.id)).toEqual([]);
    await sandboxPost(t, `/sandbox/payments/${trialing.sessionId}/renew`);
    expect((await ledgerSums(trialing.purchase.id)).by).toEqual({
      'sale:clearing': -2_910,
      'platform_fee:platform': 90,
      'vendor_share:vendor': 2_820,
    });
  });

  it('is replaced by a vendor coupon, and never applies to the platform’s own plans', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Coupon Tool', amount: 10_000 });
    const coupon = await createCoupon(t, vendor.id, { percentOff: 10 });
    const member = await createMember(t, planProducts, 'premium');
    const { purchase } = await buy(member, { priceId: product.priceId, coupon: coupon.code });
    expect(purchase).toMatchObject({
      discount: { amount: 1_000 },
      memberPrice: null,
      total: { amount: 9_000 },
    });
    const upgrade = await buy(
      member,
      { priceId: planProducts.pro_plus.monthlyPriceId },
      'tradeshelf',
    );
    expect(upgrade.purchase).toMatchObject({ memberPrice: null, total: { amount: 4_900 } });
    expect((await membership(member)).plan).toBe('pro_plus');
  });

  it('is decided by the server: a client cannot ask for it, and an ended or refunded plan loses it', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Lapse Tool', amount: 10_000 });
    const buyer = await createBuyer(t);
    // Anything the client says about a discount is ignored: the price is the server's.
    const sneaky = await buy(buyer, { priceId: product.priceId, memberDiscount: 10_000 });
    expect(sneaky.purchase).toMatchObject({ memberPrice: null, total: { amount: 10_000 } });

    const ended = await createMember(t, planProducts, 'premium');
    expect((await sandboxPost(t, `/sandbox/payments/${ended.planSessionId}/end`)).statusCode).toBe(
      303,
    );
    expect(await membership(ended)).toBeNull();
    const full = await buy(ended, { priceId: product.priceId });
    expect(full.purchase).toMatchObject({ memberPrice: null, total: { amount: 10_000 } });

    const refunded = await createMember(t, planProducts, 'pro_plus');
    expect(
      (await sandboxPost(t, `/sandbox/payments/${refunded.planSessionId}/refund`)).statusCode,
    ).toBe(303);
    expect(await membership(refunded)).toBeNull();
  });

  it('one Idempotency-Key, sent at once and again after the plan ended, is one checkout at the member price', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Race Tool', amount: 10_000 });
    const member = await createMember(t, planProducts, 'premium');
    const key = `member-race-${member.id}`;
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => checkout(member, { priceId: product.priceId }, key)),
    );
    for (const a of answers) expect(a.statusCode, a.body).toBe(201);
    expect(new Set(answers.map((a) => a.json().sessionId)).size).toBe(1);
    await sandboxPost(t, `/sandbox/payments/${member.planSessionId}/end`);
    const again = await checkout(member, { priceId: product.priceId }, key);
    expect(again.json().sessionId).toBe(answers[0]!.json().sessionId);
    await sandboxPost(t, `/sandbox/checkout/${again.json().sessionId}/pay`);
    const purchase = await purchaseOfSession(t, member, again.json().sessionId);
    expect(purchase).toMatchObject({ total: { amount: 9_700 }, paid: { amount: 9_700 } });
    expect((await ledgerSums(purchase.id)).by['platform_fee:platform']).toBe(230);
  });
});

describe('priority support', () => {
  const contact = (email: string) =>
    t.call(supportRoutes.contact, {
      body: {
        name: 'Member Trader',
        email,
        subject: 'Where is my licence?',
        message: 'The licence key for my scanner has not arrived yet.',
      },
    });
  const toSupport = () => t.smtp.inbox.filter((m) => m.to.includes(t.config.SUPPORT_EMAIL));
  /** The first support mail's subject, a long one unfolded. */
  const subject = () =>
    /^Subject: (.*)$/m
      .exec(
        toSupport()[0]!
          .raw.split(/\r?\n\r?\n/)[0]!
          .replace(/\r?\n[ \t]+/g, ' '),
      )![1]!
      .trim();
  const stored = async (email: string) =>
    (
      await t.database.db.execute<{ priority: boolean }>(
        sql`select priority from support_messages where email = ${email}`,
      )
    ).rows;

  it("marks a member's message priority with the plan's reply target; others and lapsed members are not", async () => {
    const member = await createMember(t, planProducts, 'pro_plus');
    t.smtp.inbox.length = 0;
    expect((await contact(member.email)).statusCode).toBe(202);
    await expect.poll(() => toSupport().length).toBe(1);
    expect(subject()).toBe(
      `[Priority: Pro Plus, reply within ${plans.pro_plus.supportReplyHours} h] Contact form: Where is my licence?`,
    );
    expect(await stored(member.email)).toEqual([{ priority: true }]);

    const buyer = await createBuyer(t);
    t.smtp.inbox.length = 0;
    await contact(buyer.email);
    await expect.poll(() => toSupport().length).toBe(1);
    expect(subject()).toBe('Contact form: Where is my licence?');
    expect(await stored(buyer.email)).toEqual([{ priority: false }]);

    await sandboxPost(t, `/sandbox/payments/${member.planSessionId}/end`);
    t.smtp.inbox.length = 0;
    await contact(member.email);
    await expect.poll(() => toSupport().length).toBe(1);
    expect(subject()).toBe('Contact form: Where is my licence?');
  });
});
