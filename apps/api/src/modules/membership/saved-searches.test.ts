import { membershipMessages, membershipRoutes, plans } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import {
  createMember,
  createPlatformPlans,
  type PlanProducts,
} from '../../../test/factories/membership.ts';
import { createBuyer, sandboxPost } from '../../../test/factories/orders.ts';
import { expectCursorsRefused } from '../../../test/cursors.ts';
import { useTestApp } from '../../../test/harness.ts';
import { ALERT_SETTLE_MS, runSavedSearchAlerts } from './alerts.ts';

const t = useTestApp();
let planProducts: PlanProducts;
let vendor: Awaited<ReturnType<typeof createVendor>>;

beforeAll(async () => {
  planProducts = await createPlatformPlans(t);
  vendor = await createVendor(t, { vendorUrl: 'alerts-vendor', displayName: 'Alerts Vendor' });
});
beforeEach(async () => {
  await t.jobs.settle();
  t.smtp.inbox.length = 0;
});

type Caller = { token: string };
const save = (who: Caller, body: Record<string, unknown>) =>
  t.call(membershipRoutes.createSavedSearch, { token: who.token, body });
const list = (who: Caller, query: Record<string, string> = {}) =>
  t.call(membershipRoutes.listSavedSearches, { token: who.token, query });

/** The alert job as the scheduler runs it, with a clock past the settle delay. */
async function runAlerts(at = Date.now()) {
  const done = await runSavedSearchAlerts(t.deps, new Date(at + ALERT_SETTLE_MS + 1_000));
  await t.jobs.settle();
  return done;
}

/** Alert mails (not receipts) to `email` on the loopback SMTP server. */
const alertsTo = (email: string) =>
  t.smtp.inbox.filter(
    (m) => m.to.includes(email) && /^New on Tradeshelf|match your saved searches/.test(m.subject),
  );

/** Mail reaches the loopback SMTP server after the outbox hands it over. */
async function mailsTo(email: string, n: number) {
  await expect.poll(() => alertsTo(email).length).toBe(n);
  return alertsTo(email);
}

describe('saved searches', () => {
  it('are for members: a non-member gets 403 and a zero limit, and saves nothing', async () => {
    const buyer = await createBuyer(t);
    const res = await save(buyer, { q: 'rsi' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden', error: membershipMessages.membersOnly });
    expect((await list(buyer)).json()).toMatchObject({ savedSearches: [], count: 0, limit: 0 });
    expect((await t.call(membershipRoutes.listSavedSearches, {})).statusCode).toBe(401);
  });

  it('answers 400 naming `cursor` for a forged list cursor, times PostgreSQL refuses included (issue 26)', async () => {
    const buyer = await createBuyer(t);
    await expectCursorsRefused((cursor) => list(buyer, { cursor }));
  });

  it('save, list in pages, rename, switch alerts and delete; bad input is a 400 that changes nothing', async () => {
    const member = await createMember(t, planProducts, 'premium');
    const first = await save(member, { q: 'rsi divergence', platform: 'tradingview' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().savedSearch).toMatchObject({
      name: 'rsi divergence · TradingView',
      q: 'rsi divergence',
      platform: 'tradingview',
      category: null,
      alerts: true,
    });
    for (const body of [
      { q: '' },
      { q: '   ' },
      { q: 'x', name: 'n'.repeat(61) },
      { q: 'x', category: 'nope' },
      { q: 'x', minPrice: -1 },
      { q: 'x'.repeat(201) },
    ]) {
      const bad = await save(member, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().code).toBe('validation_failed');
    }
    await save(member, { q: '', category: 'discord', name: 'Discords' });
    await save(member, { q: 'scalping', kind: 'course' });

    const page1 = (await list(member, { limit: '2' })).json();
    expect(page1).toMatchObject({ count: 3, limit: plans.premium.savedSearches });
    expect(page1.savedSearches.map((s: { name: string }) => s.name)).toEqual([
      'scalping · Courses',
      'Discords',
    ]);
    const page2 = (await list(member, { limit: '2', cursor: page1.nextCursor })).json();
    expect(page2.savedSearches.map((s: { name: string }) => s.name)).toEqual([
      'rsi divergence · TradingView',
    ]);
    expect(page2.nextCursor).toBeNull();
    expect((await list(member, { cursor: 'garbage' })).statusCode).toBe(400);

    const id = first.json().savedSearch.id;
    const update = (who: Caller, body: Record<string, unknown>, target = id) =>
      t.call(membershipRoutes.updateSavedSearch, {
        token: who.token,
        params: { id: target },
        body,
      });
    expect((await update(member, {})).statusCode).toBe(400);
    expect((await update(member, { name: '' })).statusCode).toBe(400);
    const renamed = await update(member, { name: 'RSI on TV', alerts: false });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().savedSearch).toMatchObject({ name: 'RSI on TV', alerts: false });

    // Someone else's saved search does not exist for them.
    const stranger = await createMember(t, planProducts, 'premium');
    expect((await update(stranger, { name: 'mine now' })).statusCode).toBe(404);
    const del = (who: Caller, target = id) =>
      t.call(membershipRoutes.deleteSavedSearch, { token: who.token, params: { id: target } });
    expect((await del(stranger)).statusCode).toBe(404);
    expect((await list(member)).json().count).toBe(3);

    expect((await del(member)).statusCode).toBe(200);
    expect((await del(member)).statusCode).toBe(404);
    expect((await update(member, { name: 'gone' })).statusCode).toBe(404);
    expect((await list(member)).json().count).toBe(2);
  });

  it("holds the plan's limit, also when saves race", async () => {
    const member = await createMember(t, planProducts, 'premium');
    const limit = plans.premium.savedSearches;
    for (let i = 0; i < limit - 2; i++)
      expect((await save(member, { q: `query ${i}` })).statusCode).toBe(201);
    const raced = await Promise.all([0, 1, 2, 3, 4].map((i) => save(member, { q: `race ${i}` })));
    expect(raced.map((r) => r.statusCode).sort()).toEqual([201, 201, 422, 422, 422]);
    const over = await save(member, { q: 'one more' });
    expect(over.statusCode).toBe(422);
    expect(over.json().error).toBe(membershipMessages.limitReached(limit, 'Premium'));
    expect((await list(member)).json()).toMatchObject({ count: limit, limit });
  });

  it('are lost with the plan: an ended membership cannot save more', async () => {
    const member = await createMember(t, planProducts, 'premium');
    expect((await save(member, { q: 'momentum' })).statusCode).toBe(201);
    await sandboxPost(t, `/sandbox/payments/${member.planSessionId}/end`);
    expect((await save(member, { q: 'breakout' })).statusCode).toBe(403);
    expect((await list(member)).json()).toMatchObject({ count: 1, limit: 0 });
  });
});

describe('new-listing alerts', () => {
  it('mail a member once when a newly published product matches, with a working unsubscribe link', async () => {
    const member = await createMember(t, planProducts, 'premium');
    const saved = await save(member, { q: 'volume profile', name: 'Volume tools' });
    expect(saved.statusCode).toBe(201);
    // Published before the search was saved: never alerted.
    await createProduct(t, vendor.id, { title: 'Old Volume Profile Map', amount: 1_500 });
    await t.database.db.execute(
      sql`update products set created_at = now() - interval '1 hour' where title = 'Old Volume Profile Map'`,
    );
    await createProduct(t, vendor.id, { title: 'Volume Profile Heatmap', amount: 2_500 });
    await createProduct(t, vendor.id, { title: 'Unrelated Moon Oscillator', amount: 900 });

    expect(await runAlerts()).toMatchObject({ mailed: 1 });
    const [mail] = await mailsTo(member.email, 1);
    expect(mail!.subject).toBe('New on Tradeshelf: Volume Profile Heatmap');
    // Quoted-printable: soft line breaks, and '=' itself encoded.
    const body = mail!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(body).toContain('Volume Profile Heatmap by Alerts Vendor, 25.00 USD');
    expect(body).not.toContain('Old Volume Profile Map');
    expect(body).not.toContain('Moon Oscillator');

    // Again, and concurrently: nothing more.
    const again = await Promise.all([runAlerts(), runAlerts()]);
    expect(again.map((d) => d.mailed)).toEqual([0, 0]);
    await t.jobs.settle();
    expect(alertsTo(member.email)).toHaveLength(1);

    // The link works without signing in, and only with its own signature.
    const token = /\/alerts\/unsubscribe\?token=([\w.-]+)/.exec(body)![1]!;
    const forged = await t.call(membershipRoutes.unsubscribeSavedSearch, {
      body: { token: token.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
    });
    expect(forged.statusCode).toBe(404);
    const garbled = await t.call(membershipRoutes.unsubscribeSavedSearch, {
      body: { token: 'not a token' },
    });
    expect(garbled.statusCode).toBe(400);
    const off = await t.call(membershipRoutes.unsubscribeSavedSearch, { body: { token } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ message: membershipMessages.unsubscribed, name: 'Volume tools' });
    expect((await list(member)).json().savedSearches[0].alerts).toBe(false);
    await createProduct(t, vendor.id, { title: 'Volume Profile Sessions', amount: 2_000 });
    expect((await runAlerts()).mailed).toBe(0);
  });

  it("stop at the plan's daily cap and carry on the next day; nothing for a lapsed member", async () => {
    const member = await createMember(t, planProducts, 'premium');
    await save(member, { q: 'orderflow footprint' });
    const today = new Date(Date.now() + ALERT_SETTLE_MS + 1_000).toISOString().slice(0, 10);
    await t.database.db.execute(sql`insert into alert_mail_days (user_id, day, mails)
      values (${member.id}, ${today}, ${plans.premium.alertMailsPerDay})`);
    await createProduct(t, vendor.id, { title: 'Orderflow Footprint Pro', amount: 3_000 });
    expect((await runAlerts()).mailed).toBe(0);
    const tomorrow = Date.now() + 24 * 60 * 60_000;
    expect((await runAlerts(tomorrow)).mailed).toBe(1);
    const [mail] = await mailsTo(member.email, 1);
    expect(mail!.subject).toBe('New on Tradeshelf: Orderflow Footprint Pro');

    const lapsed = await createMember(t, planProducts, 'premium');
    await save(lapsed, { q: 'gamma exposure' });
    await sandboxPost(t, `/sandbox/payments/${lapsed.planSessionId}/end`);
    await createProduct(t, vendor.id, { title: 'Gamma Exposure Levels', amount: 3_000 });
    await runAlerts();
    await t.jobs.settle();
    expect(alertsTo(lapsed.email)).toHaveLength(0);
  });
});
