import {
  ACCOUNT_DELETED_REASON,
  accountDataMessages,
  accountDataRoutes,
  accountRoutes,
  authMessages,
  authRoutes,
  developersRoutes,
  ordersRoutes,
  usersRoutes,
  accountExport,
  type AccountExport,
  type LoginResponse,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buyReferred } from '../../../test/factories/affiliates.ts';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { buyPaidProduct, createReferral } from '../../../test/factories/orders.ts';
import { enrolTwoFactor } from '../../../test/factories/two-factor.ts';
import { createUser, DEFAULT_PASSWORD } from '../../../test/factories/users.ts';
import { nextIp, useTestApp } from '../../../test/harness.ts';
import { PAGE_ROWS } from '../../db/pages.ts';

// Issue 33, ADR 060: exporting an account's data and deleting the account, through HTTP only, on a
// real database. Access and licences end through the revocation path's subscribers.

const t = useTestApp();
let vendor: Awaited<ReturnType<typeof createVendor>>;
let product: Awaited<ReturnType<typeof createProduct>>;
beforeAll(async () => {
  vendor = await createVendor(t, { displayName: 'Privacy Labs' });
  product = await createProduct(t, vendor.id, { kind: 'app', title: 'Export Bot', amount: 2_500 });
});

async function login(email: string, password = DEFAULT_PASSWORD) {
  return t.call(authRoutes.login, { body: { email, password }, ip: nextIp() });
}
async function signIn(email: string, password = DEFAULT_PASSWORD) {
  const res = await login(email, password);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LoginResponse;
}
const exportOf = (token: string, body: object = { password: DEFAULT_PASSWORD }) =>
  t.call(accountDataRoutes.accountExport, { token, body });
const deleteWith = (token: string, body: object = { password: DEFAULT_PASSWORD }) =>
  t.call(accountDataRoutes.accountDelete, { token, body });

/** The export over a real socket, uncompressed: the answer is sent as it is written. */
const exportOverSocket = (token: string) =>
  fetch(`http://127.0.0.1:${t.config.PORT}${accountDataRoutes.accountExport.path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'accept-encoding': 'identity',
    },
    body: JSON.stringify({ password: DEFAULT_PASSWORD }),
  });

/** A buyer who bought the app through checkout, signed in with a real session. */
async function buyerWithPurchase() {
  const bought = await buyPaidProduct(t, vendor.vendorUrl, product.priceId);
  const session = await signIn(bought.email);
  return { ...bought, session };
}

describe('exporting the account', () => {
  it('answers everything that is the buyer’s, and nothing of another buyer’s', async () => {
    const me = await buyerWithPurchase();
    const other = await buyerWithPurchase();
    await t.database.db
      .execute(sql`insert into reviews (id, product_id, vendor_id, user_id, rating, text)
      values (${'rev_' + me.id}, ${product.id}, ${vendor.id}, ${me.id}, 5, 'Exported words')`);

    const res = await exportOf(me.session.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json() as AccountExport;
    expect(data.profile).toMatchObject({ id: me.id, email: me.email });
    expect(data.orders.map((o) => o.id)).toEqual([me.purchaseId]);
    expect(data.orders[0]).toMatchObject({
      status: 'paid',
      total: { amount: 2_500, currency: 'usd' },
      vendorId: vendor.id,
    });
    expect(data.library.length).toBeGreaterThan(0);
    expect(data.library.every((e) => e.purchaseId === me.purchaseId)).toBe(true);
    expect(data.licences.map((l) => l.purchaseId)).toEqual([me.purchaseId]);
    expect(data.reviews.map((r) => r.text)).toEqual(['Exported words']);
    expect(data.security.signIns.length).toBe(1);
    expect(data.vendor).toBeNull();
    expect(res.body).not.toContain(other.purchaseId);
    expect(res.body).not.toContain(other.email);
    expect(res.body).not.toMatch(/argon2|password_hash|passwordHash/);
  });

  it('gives a vendor the storefront, sales, keys and endpoints without any secret', async () => {
    const seller = await createUser(t, { roles: ['buyer', 'vendor'] });
    const own = await createVendor(t, { userId: seller.id, displayName: 'Export Vendor' });
    const sold = await createProduct(t, own.id, { title: 'Sold Thing', amount: 4_000 });
    await buyPaidProduct(t, own.vendorUrl, sold.priceId);
    const session = await signIn(seller.email);
    const twoFactor = await enrolTwoFactor(t, session.token);
    const key = await t.call(developersRoutes.createApiKey, {
      token: session.token,
      body: { name: 'CI', scopes: ['sales:read'], twoFactorCode: twoFactor.nextCode() },
    });
    expect(key.statusCode, key.body).toBe(201);
    const secret = key.json().secret as string;

    // Two-factor on: the password alone is not enough.
    const noCode = await exportOf(session.token);
    expect(noCode.statusCode).toBe(403);
    expect(noCode.json().fields).toHaveProperty('twoFactorCode');
    const res = await exportOf(session.token, {
      password: DEFAULT_PASSWORD,
      twoFactorCode: twoFactor.nextCode(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json() as AccountExport;
    expect(data.security.twoFactorEnabled).toBe(true);
    expect(data.vendor).toMatchObject({ id: own.id, displayName: 'Export Vendor' });
    expect(data.vendor!.products.map((p) => p.title)).toEqual(['Sold Thing']);
    expect(data.vendor!.sales).toEqual([
      { currency: 'usd', count: 1, gross: { amount: 4_000, currency: 'usd' } },
    ]);
    expect(data.vendor!.apiKeys).toMatchObject([{ name: 'CI', scopes: ['sales:read'] }]);
    expect(data.ledger.some((l) => l.accountType === 'vendor')).toBe(true);
    expect(res.body).not.toContain(secret);
    expect(res.body).not.toContain(twoFactor.secret);
  });

  it('streams a large account page by page, whole, in order and valid against the contract', async () => {
    // More rows than three pages hold, in runs that share one timestamp to the microsecond, so
    // each page boundary falls inside a run: the keyset's tie-break on the id is what keeps them.
    const ROWS = PAGE_ROWS * 3 + 17;
    const seller = await createUser(t, { roles: ['buyer', 'vendor'] });
    const own = await createVendor(t, { userId: seller.id, displayName: 'Big Seller' });
    const item = await createProduct(t, own.id, { title: 'Bulk Thing', amount: 1_500 });
    await t.database.db.execute(sql`insert into purchases (id, buyer_id, vendor_id, provider,
        idempotency_key, request_hash, status, item_type, product_id, price_id, scheme, currency,
        subtotal, total, expires_at, paid_at, created_at)
      select 'pur_big_' || lpad(g::text, 5, '0'), ${seller.id}, ${own.id}, 'sandbox',
        'big_' || g, 'x', 'paid', 'product', ${item.id}, ${item.priceId}, 'one_time', 'usd',
        1500, 1500, at, at, at
      from generate_series(1, ${ROWS}) g,
        lateral (select timestamptz '2026-03-01 12:00:00.123456+00'
          + (g / 7) * interval '1 microsecond' as at) t`);
    await t.database.db.execute(sql`insert into entitlements (id, purchase_id, user_id, product_id,
        kind, created_at)
      select 'ent_' || id, id, ${seller.id}, ${item.id}, 'indicator', created_at from purchases
      where buyer_id = ${seller.id}`);
    await t.database.db.execute(sql`insert into ledger_entries (id, purchase_id, payment_ref,
        entry_type, account_type, account_id, amount, currency, created_at)
      select 'led_' || id, id, 'pi_' || id, 'vendor_share', 'vendor', ${own.id}, 1350, 'usd',
        created_at from purchases where buyer_id = ${seller.id}`);
    const session = await signIn(seller.email);

    // Over a real socket: the answer is sent as it is written, with no length known up front.
    const res = await exportOverSocket(session.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const text = await res.text();
    const data = JSON.parse(text) as AccountExport;
    // Exactly the contract's shape: nothing missing, nothing it does not declare.
    expect(accountExport.parse(data)).toEqual(data);

    const ids = (
      await t.database.db.execute<{ id: string }>(
        sql`select id from purchases where buyer_id = ${seller.id} order by created_at, id`,
      )
    ).rows.map((r) => r.id);
    expect(ids).toHaveLength(ROWS);
    expect(data.orders.map((o) => o.id)).toEqual(ids);
    expect(data.library.map((e) => e.purchaseId)).toEqual(ids);
    expect(data.ledger.map((l) => l.purchaseId)).toEqual(ids);
    expect(data.ledger.every((l) => l.amount.amount === 1350 && l.accountType === 'vendor')).toBe(
      true,
    );
    expect(data.vendor!.products.map((p) => p.title)).toEqual(['Bulk Thing']);
    expect(data.vendor!.sales).toEqual([
      { currency: 'usd', count: ROWS, gross: { amount: 1500 * ROWS, currency: 'usd' } },
    ]);
    expect(data.reviews).toEqual([]);
    expect(data.affiliate).toEqual({ links: [], payouts: [] });
  });

  it('a database failure once the answer has begun cuts the connection: no body reads as whole', async () => {
    const { session } = await buyerWithPurchase();
    // The reviews are read after the orders have been written: with their table gone, the failure
    // comes after the status and the first bytes went out, as a database lost mid-export would.
    await t.database.db.execute(sql`alter table reviews rename to reviews_away`);
    try {
      const res = await exportOverSocket(session.token);
      expect(res.status).toBe(200);
      // Chunked, and the last chunk never comes: a client (the browser's download, fetch, curl)
      // reports a failed transfer instead of keeping a truncated file as the export.
      const read = res.text();
      await expect(read).rejects.toThrow();
    } finally {
      await t.database.db.execute(sql`alter table reviews_away rename to reviews`);
    }
    // The next export is whole again.
    const again = await exportOf(session.token);
    expect(again.statusCode, again.body).toBe(200);
    expect(accountExport.parse(again.json()).orders).toHaveLength(1);
  });

  it('refuses a wrong password and is limited per account', async () => {
    const user = await createUser(t);
    const { token } = await signIn(user.email);
    const wrong = await exportOf(token, { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().fields).toEqual({ password: authMessages.wrongCurrentPassword });
    expect(wrong.body).not.toContain(user.email);
    for (let i = 0; i < 4; i++) expect((await exportOf(token)).statusCode).toBe(200);
    expect((await exportOf(token)).statusCode).toBe(429);
    expect((await exportOf(token, { password: '' })).statusCode).toBe(400);
    const anonymous = await t.call(accountDataRoutes.accountExport, {
      token: null,
      body: { password: DEFAULT_PASSWORD },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

async function accountRow(userId: string) {
  const res = await t.database.db.execute<{
    email: string;
    username: string | null;
    deleted_at: Date | null;
  }>(sql`select email, username, deleted_at from users where id = ${userId}`);
  return res.rows[0]!;
}

describe('deleting the account', () => {
  it('keeps the order and ledger de-identified, ends access and sessions, frees the e-mail', async () => {
    const me = await buyerWithPurchase();
    // Ids are base64url: a '-' or '_' in the tail would break the username rule one run in a few.
    const name = `leaver${me.id.slice(-6).replace(/[^a-z0-9]/gi, 'x')}`;
    await t.database.db.execute(sql`update users set username = ${name} where id = ${me.id}`);
    const ledgerBefore = await t.database.db.execute(
      sql`select id, amount from ledger_entries where purchase_id = ${me.purchaseId} order by id`,
    );

    const wrong = await deleteWith(me.session.token, { password: 'nope-nope-nope' });
    expect(wrong.statusCode).toBe(422);
    expect((await accountRow(me.id)).deleted_at).toBeNull();

    const res = await deleteWith(me.session.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(accountDataMessages.deleted);

    // What the law keeps stays, without who it was.
    const row = await accountRow(me.id);
    expect(row.deleted_at).not.toBeNull();
    expect(row.email).not.toBe(me.email);
    expect(row.email).toMatch(/@deleted\.invalid$/);
    expect(row.username).toBeNull();
    const purchase = await t.database.db.execute<{
      buyer_id: string;
      status: string;
      revoked_reason: string;
    }>(sql`select buyer_id, status, revoked_reason from purchases where id = ${me.purchaseId}`);
    expect(purchase.rows[0]).toEqual({
      buyer_id: me.id,
      status: 'paid',
      revoked_reason: ACCOUNT_DELETED_REASON,
    });
    const ledgerAfter = await t.database.db.execute(
      sql`select id, amount from ledger_entries where purchase_id = ${me.purchaseId} order by id`,
    );
    expect(ledgerAfter.rows).toEqual(ledgerBefore.rows);

    // Access and the licence end through their modules, with the revocation's reason.
    const ended = await t.database.db.execute<{ active: number; licences: number; owned: number }>(
      sql`select
        (select count(*)::int from entitlements where user_id = ${me.id} and status = 'active') as active,
        (select count(*)::int from licences where user_id = ${me.id} and status = 'active') as licences,
        (select count(*)::int from ownerships where user_id = ${me.id} and revoked_at is null) as owned`,
    );
    expect(ended.rows[0]).toEqual({ active: 0, licences: 0, owned: 0 });

    // Every sign-in is over: the access token is refused, the refresh token too.
    const profile = await t.app.inject({
      url: usersRoutes.getProfile.path,
      headers: { authorization: `Bearer ${me.session.token}` },
    });
    expect(profile.statusCode).toBe(401);
    const refreshed = await t.call(authRoutes.refreshToken, {
      token: me.session.refreshToken,
      body: { user_id: me.id, refresh_token: me.session.refreshToken },
    });
    expect(refreshed.statusCode).toBe(401);

    // The old credentials fail exactly as an unknown address does.
    const old = await login(me.email);
    const unknown = await login(`nobody-${me.id}@example.com`);
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual(unknown.json());

    // The address signs up again at once; the name is held as any name given up (ADR 058).
    const again = await t.call(authRoutes.signupBuyer, {
      body: { email: me.email, password: 'a-new-life-2026' },
      ip: nextIp(),
    });
    expect(again.statusCode, again.body).toBe(201);
    const fresh = again.json() as LoginResponse;
    expect(fresh.id).not.toBe(me.id);
    const orders = await t.call(accountDataRoutes.accountExport, {
      token: fresh.token,
      body: { password: 'a-new-life-2026' },
    });
    expect(orders.statusCode, orders.body).toBe(200);
    expect((orders.json() as AccountExport).orders).toEqual([]);
    const claim = (token: string) =>
      t.call(usersRoutes.updateProfile, { token, body: { username: name } });
    expect((await claim(fresh.token)).statusCode).toBe(409);
    await t.database.db
      .execute(sql`update username_holds set held_until = now() - interval '1 second'
      where name = ${name.toLowerCase()}`);
    expect((await claim(fresh.token)).statusCode).toBe(200);
  });

  it('asks for the two-factor code when two-factor is on', async () => {
    const user = await createUser(t);
    const { token } = await signIn(user.email);
    const twoFactor = await enrolTwoFactor(t, token);
    expect((await deleteWith(token)).statusCode).toBe(403);
    expect(
      (await deleteWith(token, { password: DEFAULT_PASSWORD, twoFactorCode: '000000' })).statusCode,
    ).toBe(400);
    expect((await accountRow(user.id)).deleted_at).toBeNull();
    const res = await deleteWith(token, {
      password: DEFAULT_PASSWORD,
      twoFactorCode: twoFactor.nextCode(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await accountRow(user.id)).deleted_at).not.toBeNull();
  });

  it('tells a vendor with sales in the refund window or subscribers what must happen first, and changes nothing', async () => {
    const seller = await createUser(t, { roles: ['buyer', 'vendor'] });
    const own = await createVendor(t, { userId: seller.id });
    const sold = await createProduct(t, own.id, { amount: 3_000, extraPrices: [900] });
    await buyPaidProduct(t, own.vendorUrl, sold.priceId);
    const { token } = await signIn(seller.email);

    const res = await deleteWith(token);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toContain(accountDataMessages.vendorPendingSales);
    expect((await accountRow(seller.id)).deleted_at).toBeNull();
    const live = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from products where vendor_id = ${own.id} and is_active`,
    );
    expect(live.rows[0]!.n).toBe(1);
    expect((await login(seller.email)).statusCode).toBe(200);

    // Past the window the sale no longer holds it up; an active subscriber still does.
    await t.database.db
      .execute(sql`update ledger_entries set created_at = now() - interval '400 days'
      where account_type = 'vendor' and account_id = ${own.id}`);
    await t.database.db.execute(sql`update purchases set paid_at = now() - interval '400 days',
        created_at = now() - interval '400 days', subscription_status = 'active'
      where vendor_id = ${own.id}`);
    const subscribed = await deleteWith(token);
    expect(subscribed.statusCode).toBe(409);
    expect(subscribed.json().error).toContain(accountDataMessages.vendorSubscribers(1));
    expect(subscribed.json().error).not.toContain(accountDataMessages.vendorPendingSales);

    await t.database.db.execute(sql`update purchases set subscription_status = 'ended'
      where vendor_id = ${own.id}`);
    // What the vendor automated ends with the account: its API key and webhook endpoint.
    const twoFactor = await enrolTwoFactor(t, token);
    const key = await t.call(developersRoutes.createApiKey, {
      token,
      body: { name: 'Ops', scopes: ['sales:read'], twoFactorCode: twoFactor.nextCode() },
    });
    expect(key.statusCode, key.body).toBe(201);
    const secret = key.json().secret as string;
    expect((await t.call(ordersRoutes.vendorSales, { token: secret })).statusCode).toBe(200);
    await t.database.db.execute(sql`insert into webhook_endpoints (id, owner_kind, owner_id, url,
        event_types, secret_sealed)
      values (${'whe_' + own.id}, 'vendor', ${own.id}, 'https://hooks.example.com/x',
        array['sale.completed'], 'sealed')`);
    const done = await deleteWith(token, {
      password: DEFAULT_PASSWORD,
      twoFactorCode: twoFactor.nextCode(),
    });
    expect(done.statusCode, done.body).toBe(200);
    const closed = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from products where vendor_id = ${own.id} and is_active`,
    );
    expect(closed.rows[0]!.n).toBe(0);
    expect((await t.call(ordersRoutes.vendorSales, { token: secret })).statusCode).toBe(401);
    const endpoints = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from webhook_endpoints where owner_id = ${own.id}`,
    );
    expect(endpoints.rows[0]!.n).toBe(0);
  });

  it('tells an affiliate with a balance to withdraw it first', async () => {
    const affiliate = await createUser(t);
    const refId = await createReferral(t, vendor.id, affiliate.id);
    await buyReferred(t, vendor.vendorUrl, product.priceId, refId);
    const { token } = await signIn(affiliate.email);
    const res = await deleteWith(token);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toContain(accountDataMessages.affiliateBalance);
    expect((await accountRow(affiliate.id)).deleted_at).toBeNull();
    const links = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from referral_links where user_id = ${affiliate.id}`,
    );
    expect(links.rows[0]!.n).toBe(1);
  });

  it('ends every other device’s sign-in too', async () => {
    const user = await createUser(t);
    const here = await signIn(user.email);
    const there = await signIn(user.email);
    expect((await deleteWith(here.token)).statusCode).toBe(200);
    const sessions = await t.call(accountRoutes.accountSessions, { token: there.token });
    expect(sessions.statusCode).toBe(401);
    const count = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from refresh_tokens where user_id = ${user.id} and revoked_at is null`,
    );
    expect(count.rows[0]!.n).toBe(0);
  });
});
