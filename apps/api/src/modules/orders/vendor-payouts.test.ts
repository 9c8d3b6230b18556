import {
  authRoutes,
  payoutMessages,
  usersRoutes,
  VENDOR_PENDING_DAYS,
  vendorStorefrontRoutes as routes,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createProduct } from '../../../test/factories/catalog.ts';
import {
  buyPaidProduct,
  completeSandboxOnboarding,
  sandboxPaymentAction,
  startProductCheckout,
} from '../../../test/factories/orders.ts';
import { createUser } from '../../../test/factories/users.ts';
import { startPayoutOnboarding } from '../../../test/factories/two-factor.ts';
import { useTestApp } from '../../../test/harness.ts';

/** Issue 19: the vendor's payouts screen through HTTP, with the payment sandbox's onboarding page. */

const t = useTestApp();

async function vendorWithStorefront() {
  const user = await createUser(t);
  const token = (await t.call(authRoutes.login, { body: user })).json().token as string;
  const role = await t.call(usersRoutes.addVendorRole, { token });
  expect(role.statusCode).toBe(200);
  const vendorToken = role.json().token as string;
  const vendorUrl = `payouts-${Math.random().toString(36).slice(2, 8)}`;
  const saved = await t.call(routes.saveVendorStorefront, {
    token,
    body: { vendorUrl, displayName: 'Payout Tester' },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { token, vendorToken, vendorUrl, vendorId: saved.json().storefront.id as string };
}

const payouts = async (token: string) => {
  const res = await t.call(routes.vendorPayouts, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().payouts;
};

const form = (path: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: path,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

describe('who may see payouts', () => {
  it('a buyer, and a vendor without a storefront, get 403 with a message saying what to do', async () => {
    const buyer = await createUser(t);
    const buyerToken = (await t.call(authRoutes.login, { body: buyer })).json().token as string;
    const refused = await t.call(routes.vendorPayouts, { token: buyerToken });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: payoutMessages.storefrontFirst, code: 'forbidden' });
    expect((await t.call(usersRoutes.addVendorRole, { token: buyerToken })).statusCode).toBe(200);
    expect((await t.call(routes.vendorPayouts, { token: buyerToken })).statusCode).toBe(403);
    expect((await t.call(routes.vendorPayouts, { token: null })).statusCode).toBe(401);
  });
});

describe('onboarding through the sandbox', () => {
  it('goes from not started to active, saying at each step what is still needed', async () => {
    const { token, vendorId, vendorToken } = await vendorWithStorefront();
    // The vendor-role endpoint's own token reads the same screen (ADR 039).
    expect((await payouts(vendorToken)).status).toBe('not_started');
    expect(await payouts(token)).toMatchObject({
      status: 'not_started',
      message: payoutMessages.notStarted,
      requirements: [],
      chargesEnabled: false,
      balances: [],
      available: { amount: 0, currency: 'usd' },
    });

    const started = await startPayoutOnboarding(t, token);
    expect(started.statusCode, started.body).toBe(200);
    const url = new URL(started.json().url as string);
    expect(url.pathname).toMatch(/^\/sandbox\/connect\/[\w.-]+$/);
    const incomplete = await payouts(token);
    expect(incomplete).toMatchObject({ status: 'incomplete', message: payoutMessages.incomplete });
    // What a new Express account owes at Stripe, in words.
    expect(incomplete.requirements).toEqual([
      'Add your website or a public page about your business.',
      'Add the bank account your payouts go to.',
      'Add your date of birth.',
      'Upload an identity document (passport, ID card or driving licence).',
      'Accept the payment provider’s services agreement.',
    ]);
    expect(incomplete.disabledReason).toMatch(/overdue/);

    // The page is a form a person fills in: labelled fields, the same things still due.
    const pageHtml = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(pageHtml.statusCode).toBe(200);
    expect(pageHtml.body).toContain('<label for="businessName">');
    expect(pageHtml.body).toContain('Add the bank account your payouts go to.');
    // The public origin (`http://localhost:PORT` without PUBLIC_URL), never the request's Host.
    expect(pageHtml.body).toContain(
      `href="http://localhost:${t.config.PORT}/vendor/payouts?onboarding=later"`,
    );

    // Missing details: the page says which, and nothing changes.
    const missing = await form(url.pathname, { businessName: '', outcome: 'active' });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('Enter the name you sell under.');
    expect(missing.body).toContain('Accept the services agreement to continue.');
    expect((await payouts(token)).status).toBe('incomplete');

    const back = await completeSandboxOnboarding(t, url.toString(), 'pending');
    expect(new URL(back).pathname + new URL(back).search).toBe('/vendor/payouts?onboarding=done');
    expect(await payouts(token)).toMatchObject({
      status: 'pending_verification',
      message: payoutMessages.pendingVerification,
      requirements: [],
      disabledReason: null,
    });

    // Continuing onboarding reuses the account; the sandbox lets verification finish by hand.
    const again = await startPayoutOnboarding(t, token);
    const againPath = new URL(again.json().url as string).pathname;
    expect((await t.app.inject({ method: 'GET', url: againPath })).body).toContain(
      'Complete verification',
    );
    expect((await form(againPath, { outcome: 'verify' })).statusCode).toBe(303);
    expect(await payouts(token)).toMatchObject({
      status: 'active',
      message: payoutMessages.active,
      chargesEnabled: true,
      payoutsEnabled: true,
    });
    // Checkout now routes the vendor's sales to the account.
    const account = await t.database.db.execute(
      sql`select charges_enabled from vendor_payment_accounts where vendor_id = ${vendorId}`,
    );
    expect(account.rows).toEqual([{ charges_enabled: true }]);
  });

  it('refuses a forged or altered onboarding link', async () => {
    const { token } = await vendorWithStorefront();
    const started = await startPayoutOnboarding(t, token);
    const path = new URL(started.json().url as string).pathname;
    const [account, expires, mac] = path.split('/').at(-1)!.split('.');
    const other = `acct_sbx_someone.${expires}`;
    const payload = `${account}.${expires}`;
    for (const forged of [`${other}.${mac}`, `${payload}.${'0'.repeat(32)}`]) {
      expect(
        (await t.app.inject({ method: 'GET', url: `/sandbox/connect/${forged}` })).statusCode,
      ).toBe(404);
      expect((await form(`/sandbox/connect/${forged}`, { outcome: 'verify' })).statusCode).toBe(
        404,
      );
    }
  });
});

describe('balances from the ledger', () => {
  it('shows a new sale as pending, then available after the window, less refunds', async () => {
    const { token, vendorId, vendorUrl } = await vendorWithStorefront();
    const product = await createProduct(t, vendorId, { amount: 10_000 });
    const { purchaseId } = await buyPaidProduct(t, vendorUrl, product.priceId);
    const share = Number(
      (
        await t.database.db.execute<{ amount: number }>(
          sql`select amount from ledger_entries where purchase_id = ${purchaseId}
            and account_type = 'vendor' and entry_type = 'vendor_share'`,
        )
      ).rows[0]!.amount,
    );
    expect(share).toBeGreaterThan(0);
    const fresh = await payouts(token);
    expect(fresh.balances).toEqual([
      { currency: 'usd', available: 0, pending: share, refunded: 0 },
    ]);
    expect(fresh.pending).toEqual({ amount: share, currency: 'usd' });
    expect(fresh.pendingDays).toBe(VENDOR_PENDING_DAYS);

    await t.database.db.execute(sql`update ledger_entries
      set created_at = now() - make_interval(days => ${VENDOR_PENDING_DAYS + 1}::int)
      where purchase_id = ${purchaseId}`);
    const later = await payouts(token);
    expect(later.balances).toEqual([
      { currency: 'usd', available: share, pending: 0, refunded: 0 },
    ]);
    expect(later.available).toEqual({ amount: share, currency: 'usd' });

    // A partial refund comes off the vendor's share (the sandbox dashboard's "refund half").
    const refund = await sandboxPaymentAction(t, purchaseId, 'refund_half');
    expect(refund.statusCode, refund.body).toBe(303);
    const refunded = (await payouts(token)).balances[0];
    expect(refunded.refunded).toBeGreaterThan(0);
    expect(refunded.available + refunded.pending).toBe(share - refunded.refunded);
  });
});

describe('an abandoned onboarding (issue 27)', () => {
  /** A buyer's checkout of the vendor's product: the account the provider's session pays into. */
  async function checkoutPaysInto(vendorUrl: string, priceId: string): Promise<string | null> {
    const buyer = await createUser(t);
    const buyerToken = (await t.call(authRoutes.login, { body: buyer })).json().token as string;
    const sessionId = await startProductCheckout(t, { token: buyerToken }, vendorUrl, { priceId });
    const found = await t.database.db.execute<{ account: string | null }>(
      sql`select private->'params'->'payment_intent_data'->'transfer_data'->>'destination' as account
        from sandbox_stripe_objects where id = ${sessionId}`,
    );
    return found.rows[0]!.account;
  }

  it('says what the provider says, and that sales go through as checkout lets them', async () => {
    const { token, vendorId, vendorUrl } = await vendorWithStorefront();
    const product = await createProduct(t, vendorId, { amount: 1_500 });
    const started = await startPayoutOnboarding(t, token);
    expect(started.statusCode, started.body).toBe(200);
    // The vendor leaves the provider's page: the account takes no charges, has details overdue.
    const left = await payouts(token);
    expect(left).toMatchObject({
      status: 'incomplete',
      chargesEnabled: false,
      payoutsEnabled: false,
      salesNote: payoutMessages.salesCollected,
    });
    expect(left.disabledReason).toMatch(/cannot take payments/);
    // Checkout still sells, collected by the platform, as the screen says.
    expect(await checkoutPaysInto(vendorUrl, product.priceId)).toBeNull();

    await completeSandboxOnboarding(t, started.json().url as string, 'active');
    const active = await payouts(token);
    expect(active).toMatchObject({
      status: 'active',
      chargesEnabled: true,
      salesNote: payoutMessages.salesToAccount,
    });
    const account = await t.database.db.execute<{ account_id: string }>(
      sql`select account_id from vendor_payment_accounts where vendor_id = ${vendorId}`,
    );
    expect(await checkoutPaysInto(vendorUrl, product.priceId)).toBe(account.rows[0]!.account_id);
  });
});
