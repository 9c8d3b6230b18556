import { affiliateMessages, affiliatesRoutes, ordersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buyReferred,
  connectPayouts,
  generateRef,
  moveHoldClock,
  openProgramme,
  overview,
  vendorToken,
} from '../../../test/factories/affiliates.ts';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import {
  completeSandboxOnboarding,
  createBuyer,
  createReferral,
  sandboxPost,
} from '../../../test/factories/orders.ts';
import { expectCursorsRefused } from '../../../test/cursors.ts';
import { createUser, userToken } from '../../../test/factories/users.ts';
import { startPayoutOnboarding } from '../../../test/factories/two-factor.ts';
import { startTestApp, useTestApp } from '../../../test/harness.ts';

const MINIMUM = 1_500;
const t = useTestApp(() =>
  startTestApp({
    AFFILIATE_HOLD_DAYS: '30',
    AFFILIATE_MIN_PAYOUT: String(MINIMUM),
    PLATFORM_FEE_BPS: '500',
    PLATFORM_FEE_FIXED: '0',
  }),
);
let vendor: Awaited<ReturnType<typeof createVendor>>;
let product: Awaited<ReturnType<typeof createProduct>>;
let vendorAuth: string;

beforeAll(async () => {
  vendor = await createVendor(t, { displayName: 'Referral Labs' });
  product = await createProduct(t, vendor.id, { title: 'Referred Indicator', amount: 10_000 });
  vendorAuth = await vendorToken(t, vendor);
  await openProgramme(t, vendorAuth, { commissionBps: 2000, cookieDays: 45 });
});
// Each test starts with the hold clock at now: advancing it is what some tests prove.
beforeEach(() => moveHoldClock(t, 'reset'));

/** An affiliate with a referral for the test vendor. */
async function newAffiliate() {
  const user = await createBuyer(t);
  const referral = await generateRef(t, user.token, vendor.id);
  return { ...user, referral };
}

const sum = async (query: ReturnType<typeof sql>) =>
  Number((await t.database.db.execute<{ n: string }>(query)).rows[0]!.n);

/** The affiliate's ledger balance (commission less clawbacks less payouts), all entries. */
const ledgerBalance = (userId: string) =>
  sum(sql`select coalesce(sum(amount), 0) as n from ledger_entries
          where account_type = 'affiliate' and account_id = ${userId}`);

describe('programmes and referrals', () => {
  it('lists open programmes with the shape the web app reads; generating joins once', async () => {
    const affiliate = await createBuyer(t);
    const closed = await createVendor(t, { displayName: 'Invite Only Co' });
    await openProgramme(t, await vendorToken(t, closed), { open: false, commissionBps: 3000 });

    const listed = await t.call(affiliatesRoutes.affiliateVendors, { token: affiliate.token });
    expect(listed.statusCode).toBe(200);
    const mine = listed.json().vendors.find((v: { vendorId: string }) => v.vendorId === vendor.id);
    expect(mine).toEqual({
      vendorId: vendor.id,
      vendorUrl: vendor.vendorUrl,
      name: 'Referral Labs',
      refId: null,
      shareUrl: null,
      commissionBps: 2000,
      cookieDays: 45,
      open: true,
      joined: false,
    });
    // An invite-only programme is not listed to someone who has not joined it.
    expect(listed.json().vendors.some((v: { vendorId: string }) => v.vendorId === closed.id)).toBe(
      false,
    );

    const first = await generateRef(t, affiliate.token, vendor.id);
    const [again, concurrent] = await Promise.all([
      generateRef(t, affiliate.token, vendor.id),
      generateRef(t, affiliate.token, vendor.id),
    ]);
    expect(first.refId).toMatch(/^[a-z0-9-]+$/);
    expect(again.refId).toBe(first.refId);
    expect(concurrent.refId).toBe(first.refId);
    expect(first.shareUrl).toMatch(new RegExp(`/v/${vendor.vendorUrl}\\?ref=${first.refId}$`));
    const relisted = await t.call(affiliatesRoutes.affiliateVendors, { token: affiliate.token });
    expect(relisted.json().vendors[0]).toMatchObject({
      vendorId: vendor.id,
      refId: first.refId,
      joined: true,
    });

    const refused = await t.call(affiliatesRoutes.generateRef, {
      token: affiliate.token,
      body: { vendorId: closed.id },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ error: affiliateMessages.inviteOnly, code: 'business_rule' });
    const unknown = await t.call(affiliatesRoutes.generateRef, {
      token: affiliate.token,
      body: { vendorId: 'ven_nope' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('only vendors set programme terms, and terms stay within bounds', async () => {
    const buyer = await createBuyer(t);
    const res = await t.call(affiliatesRoutes.updateVendorProgramme, {
      token: buyer.token,
      body: { open: true, commissionBps: 2000, cookieDays: 30 },
    });
    expect(res.statusCode).toBe(403);
    const wild = await t.call(affiliatesRoutes.updateVendorProgramme, {
      token: vendorAuth,
      body: { open: true, commissionBps: 20_000, cookieDays: 30 },
    });
    expect(wild.statusCode).toBe(400);
  });
});

describe('times PostgreSQL refuses (issue 26)', () => {
  it('answers 400 naming `cursor` for a forged referrals cursor', async () => {
    const affiliate = await newAffiliate();
    await expectCursorsRefused((cursor) =>
      t.call(affiliatesRoutes.affiliateReferrals, { token: affiliate.token, query: { cursor } }),
    );
  });
});

describe('commission', () => {
  it('a referred purchase earns commission, pending during the hold and available after it', async () => {
    const affiliate = await newAffiliate();
    const { purchaseId } = await buyReferred(
      t,
      vendor.vendorUrl,
      product.priceId,
      affiliate.referral.refId,
    );
    // 20% of the $100 the buyer paid, in the ledger set the payment wrote.
    expect(
      await sum(sql`select amount as n from ledger_entries where purchase_id = ${purchaseId}
        and entry_type = 'affiliate_commission' and account_id = ${affiliate.id}`),
    ).toBe(2_000);

    let seen = await overview(t, affiliate.token);
    expect(seen.referrals).toHaveLength(1);
    expect(seen.referrals[0]).toMatchObject({
      id: purchaseId,
      refId: affiliate.referral.refId,
      vendorId: vendor.id,
      vendorName: 'Referral Labs',
      itemTitle: 'Referred Indicator',
      sale: { amount: 10_000, currency: 'usd' },
      commission: { amount: 2_000, currency: 'usd' },
      clawedBack: { amount: 0, currency: 'usd' },
      state: 'pending',
    });
    const availableAt = Date.parse(seen.referrals[0].availableAt);
    expect(availableAt - Date.parse(seen.referrals[0].createdAt)).toBeGreaterThan(29 * 86_400_000);
    expect(seen.stats).toMatchObject({
      availableBalance: { amount: 0, currency: 'usd' },
      pendingBalance: { amount: 2_000, currency: 'usd' },
      totalWithdrawn: { amount: 0, currency: 'usd' },
      totalEarned: { amount: 2_000, currency: 'usd' },
      sales: 1,
      holdDays: 30,
      payoutAccount: 'none',
      canRequestPayout: false,
      payoutBlockedReason: affiliateMessages.connectFirst,
    });
    expect(seen.stats.earnings).toHaveLength(12);
    expect(seen.stats.earnings.at(-1).amount).toBe(2_000);
    expect(seen.withdrawals).toEqual([]);

    await moveHoldClock(t, 'advance');
    seen = await overview(t, affiliate.token);
    expect(seen.referrals[0].state).toBe('available');
    expect(seen.stats.availableBalance.amount).toBe(2_000);
    expect(seen.stats.pendingBalance.amount).toBe(0);
  });

  it('a refund claws the commission back, during the hold and after it', async () => {
    const affiliate = await newAffiliate();
    const early = await buyReferred(t, vendor.vendorUrl, product.priceId, affiliate.referral.refId);
    expect((await sandboxPost(t, `/sandbox/payments/${early.sessionId}/refund`)).statusCode).toBe(
      303,
    );
    let seen = await overview(t, affiliate.token);
    expect(seen.referrals[0]).toMatchObject({
      state: 'clawed_back',
      clawedBack: { amount: 2_000 },
    });
    expect(seen.stats.pendingBalance.amount).toBe(0);

    // A half refund after the hold takes half of an available commission.
    const late = await buyReferred(t, vendor.vendorUrl, product.priceId, affiliate.referral.refId);
    await moveHoldClock(t, 'advance');
    expect(
      (await sandboxPost(t, `/sandbox/payments/${late.sessionId}/refund_half`)).statusCode,
    ).toBe(303);
    seen = await overview(t, affiliate.token);
    const half = seen.referrals.find((r: { id: string }) => r.id === late.purchaseId);
    expect(half).toMatchObject({ state: 'available', clawedBack: { amount: 1_000 } });
    expect(seen.stats.availableBalance.amount).toBe(1_000);
    expect(await ledgerBalance(affiliate.id)).toBe(1_000);
  });

  it('a self-referral and another vendor’s referral earn nothing', async () => {
    const affiliate = await newAffiliate();
    const other = await createVendor(t);
    const otherProduct = await createProduct(t, other.id, { amount: 5_000 });
    await buyReferred(t, other.vendorUrl, otherProduct.priceId, affiliate.referral.refId);
    const seen = await overview(t, affiliate.token);
    expect(seen.referrals).toEqual([]);
    expect(await ledgerBalance(affiliate.id)).toBe(0);
  });
});

describe('payouts', () => {
  /** An affiliate with `sales` referred sales past the hold and a connected payout account. */
  async function paidUpAffiliate(sales = 1) {
    const affiliate = await newAffiliate();
    for (let i = 0; i < sales; i++)
      await buyReferred(t, vendor.vendorUrl, product.priceId, affiliate.referral.refId);
    await moveHoldClock(t, 'advance');
    return affiliate;
  }

  it('needs a connected account, then pays the whole available balance once', async () => {
    const affiliate = await paidUpAffiliate(2);
    const early = await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token });
    expect(early.statusCode).toBe(422);
    expect(early.json().error).toBe(affiliateMessages.connectFirst);

    const connected = await connectPayouts(t, affiliate.token);
    expect(connected).toMatchObject({
      message: affiliateMessages.connectReady,
      payoutsEnabled: true,
    });
    const res = await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token });
    expect(res.statusCode, res.body).toBe(200);
    const payout = res.json().payout;
    expect(payout).toMatchObject({
      amount: { amount: 4_000, currency: 'usd' },
      status: 'paid',
      failureReason: null,
    });
    // The sandbox recorded the transfer under a key derived from the payout.
    const transfer = await t.database.db.execute<{ amount: number; idempotency_key: string }>(
      sql`select (params->>'amount')::int as amount, idempotency_key from sandbox_stripe_requests
        where path = '/v1/transfers' and params->'metadata'->>'payout_id' = ${payout.id}`,
    );
    expect(transfer.rows).toEqual([{ amount: 4_000, idempotency_key: `payout:${payout.id}` }]);

    const seen = await overview(t, affiliate.token);
    expect(seen.withdrawals[0]).toEqual(payout);
    expect(seen.stats).toMatchObject({
      availableBalance: { amount: 0 },
      totalWithdrawn: { amount: 4_000 },
      canRequestPayout: false,
      payoutBlockedReason: affiliateMessages.nothingAvailable,
    });
    const again = await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token });
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe(affiliateMessages.nothingAvailable);
  });

  it('refuses a balance below the minimum, saying how much is available', async () => {
    const affiliate = await newAffiliate();
    const cheap = await createProduct(t, vendor.id, { amount: 5_000 });
    await buyReferred(t, vendor.vendorUrl, cheap.priceId, affiliate.referral.refId);
    await moveHoldClock(t, 'advance');
    await connectPayouts(t, affiliate.token);
    const res = await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('Payouts start at $15.00; $10.00 is available.');
    const seen = await overview(t, affiliate.token);
    expect(seen.stats.canRequestPayout).toBe(false);
    expect(seen.stats.payoutBlockedReason).toBe(res.json().error);
  });

  it('a transfer the provider fails, or reverses, returns the amount to the balance', async () => {
    const affiliate = await paidUpAffiliate(1);
    await connectPayouts(t, affiliate.token);
    const paid = (await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token })).json()
      .payout;
    const transferOf = async (payoutId: string) =>
      (
        await t.database.db.execute<{ id: string }>(
          sql`select id from sandbox_stripe_objects
            where type = 'transfer' and data->'metadata'->>'payout_id' = ${payoutId}`,
        )
      ).rows[0]!.id;

    // Stripe's transfers do not fail after the fact: what the bank refuses, Stripe reverses.
    const failed = await sandboxPost(t, `/sandbox/transfers/${await transferOf(paid.id)}/fail`);
    expect(failed.statusCode).toBe(303);
    const afterFail = await t.call(affiliatesRoutes.affiliatePayout, {
      token: affiliate.token,
      params: { id: paid.id },
    });
    expect(afterFail.json().payout).toMatchObject({
      status: 'returned',
      failureReason: 'Stripe reversed the transfer.',
    });
    let seen = await overview(t, affiliate.token);
    expect(seen.stats.availableBalance.amount).toBe(2_000);
    expect(seen.stats.totalWithdrawn.amount).toBe(0);
    // Failing it again (a repeated webhook) returns nothing twice.
    await sandboxPost(t, `/sandbox/transfers/${await transferOf(paid.id)}/fail`);
    expect(await ledgerBalance(affiliate.id)).toBe(2_000);

    const second = (await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token })).json()
      .payout;
    expect(second.amount.amount).toBe(2_000);
    await sandboxPost(t, `/sandbox/transfers/${await transferOf(second.id)}/reverse`);
    seen = await overview(t, affiliate.token);
    expect(seen.withdrawals.map((w: { status: string }) => w.status)).toEqual([
      'returned',
      'returned',
    ]);
    expect(seen.stats.availableBalance.amount).toBe(2_000);
    // Every transfer set of the ledger sums to zero.
    expect(
      await sum(sql`select count(*) as n from (select payment_ref from ledger_entries
        where purchase_id is null group by payment_ref having sum(amount) <> 0) s`),
    ).toBe(0);
  });

  it('another user’s payout answers 404', async () => {
    const affiliate = await paidUpAffiliate(1);
    await connectPayouts(t, affiliate.token);
    const payout = (await t.call(affiliatesRoutes.requestPayout, { token: affiliate.token })).json()
      .payout;
    const stranger = await createBuyer(t);
    const res = await t.call(affiliatesRoutes.affiliatePayout, {
      token: stranger.token,
      params: { id: payout.id },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(affiliateMessages.payoutNotFound);
  });

  // Real PostgreSQL: concurrent transactions on separate connections (PGlite has one).
  it.runIf(Boolean(process.env.DATABASE_URL))(
    'pays out exactly once under 50 concurrent requests, 20 rounds; the balance never goes below zero',
    { timeout: 240_000 },
    async () => {
      const affiliate = await newAffiliate();
      await connectPayouts(t, affiliate.token);
      let paidOut = 0;
      for (let round = 0; round < 20; round++) {
        await buyReferred(t, vendor.vendorUrl, product.priceId, affiliate.referral.refId);
        await moveHoldClock(t, 'advance');
        const answers = await Promise.all(
          Array.from({ length: 50 }, () =>
            t.call(affiliatesRoutes.requestPayout, { token: affiliate.token }),
          ),
        );
        const ok = answers.filter((a) => a.statusCode === 200);
        expect(ok, `round ${round}`).toHaveLength(1);
        expect(
          answers.filter((a) => a.statusCode === 422).map((a) => a.json().error),
          `round ${round}`,
        ).toEqual(Array(49).fill(affiliateMessages.nothingAvailable));
        expect(ok[0]!.json().payout.amount.amount).toBe(2_000);
        paidOut += 2_000;
        const balance = await ledgerBalance(affiliate.id);
        expect(balance, `round ${round}`).toBe(0);
        const payouts = await sum(
          sql`select count(*) as n from affiliate_payouts where user_id = ${affiliate.id}`,
        );
        expect(payouts).toBe(round + 1);
      }
      const seen = await overview(t, affiliate.token);
      expect(seen.stats.totalWithdrawn.amount).toBe(paidOut);
      expect(seen.stats.availableBalance.amount).toBe(0);
      // The payouts' debits equal the commission earned; each transfer set sums to zero.
      expect(
        await sum(sql`select coalesce(-sum(amount), 0) as n from ledger_entries
          where account_type = 'affiliate' and account_id = ${affiliate.id}
            and entry_type = 'affiliate_payout'`),
      ).toBe(paidOut);
      expect(
        await sum(sql`select count(*) as n from (select payment_ref from ledger_entries
          where purchase_id is null group by payment_ref having sum(amount) <> 0) s`),
      ).toBe(0);
    },
  );
});

describe('invitations', () => {
  it('inviting one address again at once renews its terms but e-mails it once', async () => {
    const email = `again-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const answers = await Promise.all(
      [3000, 3100, 3200, 3300, 3400, 3500].map((commissionBps) =>
        t.call(affiliatesRoutes.vendorInvite, {
          token: vendorAuth,
          body: { email, commissionBps },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(answers.filter((a) => a.json().emailed === true)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.json().invitation.id)).size).toBe(1);
    const mails = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from mail_outbox where "to" = ${email}`,
    );
    expect(mails.rows[0]!.n).toBe(1);
    const listed = await t.call(affiliatesRoutes.vendorInvites, { token: vendorAuth });
    const row = listed
      .json()
      .invitations.filter((i: { email: string }) => i.email === email) as Array<{
      commissionBps: number;
    }>;
    expect(row).toHaveLength(1);
    expect([3000, 3100, 3200, 3300, 3400, 3500]).toContain(row[0]!.commissionBps);
  });

  it('the e-mail links to the public origin, whatever Host the request came with (issue 26)', async () => {
    const email = `hostile-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const sent = await t.call(affiliatesRoutes.vendorInvite, {
      token: vendorAuth,
      body: { email, commissionBps: 3000 },
      headers: {
        host: 'tradeshelf-account-security.evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'http',
      },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const text = await t.database.db.execute<{ text: string }>(
      sql`select text from mail_outbox where "to" = ${email}`,
    );
    const body = text.rows[0]?.text ?? '';
    expect(body).toContain(
      `http://localhost:${t.config.PORT}/affiliate?invite=${sent.json().invitation.id}`,
    );
    expect(body).not.toContain('evil.example');
  });

  it('the invited account accepts; another account is refused; the e-mail carries the link', async () => {
    const invitee = await createUser(t);
    const inviteeToken = await userToken(t, invitee);
    const sent = await t.call(affiliatesRoutes.vendorInvite, {
      token: vendorAuth,
      body: { email: invitee.email.toUpperCase(), commissionBps: 3500, cookieDays: 60 },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const invitation = sent.json().invitation;
    expect(invitation).toMatchObject({
      vendorId: vendor.id,
      email: invitee.email,
      commissionBps: 3500,
      cookieDays: 60,
      status: 'pending',
    });
    await t.jobs.settle();
    const mail = t.smtp.inbox.find((m) => m.to.includes(invitee.email));
    expect(mail?.subject).toBe('Referral Labs invites you to its affiliate programme');
    const text = await t.database.db.execute<{ text: string }>(
      sql`select text from mail_outbox where "to" = ${invitee.email}`,
    );
    expect(text.rows[0]?.text).toContain(`/affiliate?invite=${invitation.id}`);

    const pending = await t.call(affiliatesRoutes.pendingInvites, { token: inviteeToken });
    expect(pending.json().invitations).toEqual([invitation]);

    const stranger = await createBuyer(t);
    const wrong = await t.call(affiliatesRoutes.acceptInvite, {
      token: stranger.token,
      params: { id: invitation.id },
      query: { vendorId: vendor.id },
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error).toBe(affiliateMessages.inviteNotFound);
    const strangerInvites = await t.call(affiliatesRoutes.pendingInvites, {
      token: stranger.token,
    });
    expect(strangerInvites.json().invitations).toEqual([]);

    const accepted = await t.call(affiliatesRoutes.acceptInvite, {
      token: inviteeToken,
      params: { id: invitation.id },
      query: { vendorId: vendor.id },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().referral).toMatchObject({
      vendorId: vendor.id,
      refId: invitation.refId,
      commissionBps: 3500,
      cookieDays: 60,
      joined: true,
    });
    // Accepting again answers the same referral; the invitation is no longer pending.
    const repeat = await t.call(affiliatesRoutes.acceptInvite, {
      token: inviteeToken,
      params: { id: invitation.id },
      query: { vendorId: vendor.id },
    });
    expect(repeat.json().referral.refId).toBe(invitation.refId);
    expect(
      (await t.call(affiliatesRoutes.pendingInvites, { token: inviteeToken })).json().invitations,
    ).toEqual([]);
    // A sale through the invited link earns the invitation's 35%.
    const { purchaseId } = await buyReferred(
      t,
      vendor.vendorUrl,
      product.priceId,
      invitation.refId,
    );
    expect(
      await sum(sql`select amount as n from ledger_entries where purchase_id = ${purchaseId}
        and entry_type = 'affiliate_commission'`),
    ).toBe(3_500);
  });

  it('an invitation names the invitee’s existing link; a wrong vendor id is 404', async () => {
    const affiliate = await newAffiliate();
    const email = (
      await t.database.db.execute<{ email: string }>(
        sql`select email from users where id = ${affiliate.id}`,
      )
    ).rows[0]!.email;
    const sent = await t.call(affiliatesRoutes.vendorInvite, {
      token: vendorAuth,
      body: { email },
    });
    const invitation = sent.json().invitation;
    expect(invitation.refId).toBe(affiliate.referral.refId);
    const wrongVendor = await t.call(affiliatesRoutes.acceptInvite, {
      token: affiliate.token,
      params: { id: invitation.id },
      query: { vendorId: 'ven_other' },
    });
    expect(wrongVendor.statusCode).toBe(404);
    const vendorEmail = (
      await t.database.db.execute<{ email: string }>(
        sql`select email from users where id = ${vendor.userId}`,
      )
    ).rows[0]!.email;
    const self = await t.call(affiliatesRoutes.vendorInvite, {
      token: vendorAuth,
      body: { email: vendorEmail },
    });
    expect(self.statusCode).toBe(422);
    expect(self.json().error).toBe(affiliateMessages.inviteSelf);
  });
});

describe('payout accounts (connect)', () => {
  it('the callback before onboarding fails with a message; vendors keep their own flow', async () => {
    const affiliate = await createBuyer(t);
    const early = await t.call(ordersRoutes.connectAccountCallback, { token: affiliate.token });
    expect(early.statusCode).toBe(422);
    expect(early.json()).toEqual({ error: affiliateMessages.connectFirst, code: 'business_rule' });

    const started = await startPayoutOnboarding(t, affiliate.token);
    // The sandbox's onboarding page, which returns to the affiliate's page.
    expect(await completeSandboxOnboarding(t, started.json().url)).toMatch(
      /\/affiliate\/connected$/,
    );

    // A vendor's default is the vendor account (checkout routes sales to it).
    const asVendor = await startPayoutOnboarding(t, vendorAuth);
    expect(await completeSandboxOnboarding(t, asVendor.json().url)).toMatch(
      /\/vendor\/payouts\?onboarding=done$/,
    );
    const vendorRows = await sum(
      sql`select count(*) as n from vendor_payment_accounts where vendor_id = ${vendor.id}`,
    );
    expect(vendorRows).toBe(1);
    // A buyer asking for a vendor account is refused as before.
    const notVendor = await startPayoutOnboarding(t, affiliate.token, 'vendor');
    expect(notVendor.statusCode).toBe(403);
  });
});

describe('clicks', () => {
  it('counts a visitor once a day per link, not the affiliate’s own, and answers the cookie window', async () => {
    const affiliate = await newAffiliate();
    const visit = (ip: string, token?: string, ua = 'Mozilla/5.0 test') =>
      t.call(affiliatesRoutes.affiliateClick, {
        body: { refId: affiliate.referral.refId },
        ip,
        token: token ?? null,
        headers: { 'user-agent': ua },
      });
    expect((await visit('192.0.2.10')).json()).toEqual({ counted: true, cookieDays: 45 });
    expect((await visit('192.0.2.10')).json()).toEqual({ counted: false, cookieDays: 45 });
    expect((await visit('192.0.2.10', undefined, 'Other browser')).json().counted).toBe(true);
    expect((await visit('192.0.2.11', affiliate.token)).json().counted).toBe(false);
    const unknown = await t.call(affiliatesRoutes.affiliateClick, { body: { refId: 'nobody-x' } });
    expect(unknown.json()).toEqual({ counted: false, cookieDays: null });
    const seen = await overview(t, affiliate.token);
    expect(seen.stats.clicks).toBe(2);
    expect(seen.stats.links).toEqual([
      { refId: affiliate.referral.refId, vendorId: vendor.id, clicks: 2, sales: 0 },
    ]);
  });

  it('is rate limited per address', async () => {
    const refId = await createReferral(t, vendor.id, (await createUser(t)).id);
    let limited = 0;
    for (let i = 0; i < 65; i++) {
      const res = await t.call(affiliatesRoutes.affiliateClick, {
        body: { refId },
        ip: '198.51.100.7',
        headers: { 'user-agent': `ua-${i}` },
      });
      if (res.statusCode === 429) limited++;
    }
    expect(limited).toBe(5);
  });
});
