import {
  ordersRoutes,
  tradingViewUsernameMessages,
  tradingviewRoutes as r,
  type TradingViewAccessResponse,
  type TradingViewTask,
  utcDayLabel,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, signedInVendor } from '../../../test/factories/catalog.ts';
import {
  type Buyer,
  buyPaidProduct,
  createBuyer,
  paySession,
  purchaseEvents,
  purchaseIdOfSession,
  sandboxPaymentAction,
  sandboxPost,
  startProductCheckout,
} from '../../../test/factories/orders.ts';
import { expectCursorsRefused } from '../../../test/cursors.ts';
import { useTestApp } from '../../../test/harness.ts';
import { subscribers } from '../../events/subscribers.ts';
import { remindOverdue } from './reminders.ts';

// TradingView invite-only scripts end to end through the API (ADR 034): bought through the
// sandbox's checkout, the username given by the buyer, tasks in the vendor's queue with an e-mail
// each, completed by the vendor; refunds, cancellations and a new username move the grants.

const t = useTestApp();
type Vendor = { id: string; vendorUrl: string; email: string; token: string };
let vendor: Vendor;
let otherVendor: Vendor;
let indicator: Awaited<ReturnType<typeof createProduct>>;
let scriptIds: string[];

const makeVendor = (displayName: string): Promise<Vendor> => signedInVendor(t, { displayName });

async function addScript(v: Vendor, name: string, code: string) {
  const res = await t.call(r.createTradingViewScript, {
    token: v.token,
    body: { name, url: `https://www.tradingview.com/script/${code}-${name.replace(/ /g, '-')}/` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().script.id as string;
}

async function bind(v: Vendor, productId: string, ids: string[]) {
  const res = await t.call(r.setProductTradingViewScripts, {
    token: v.token,
    params: { id: productId },
    body: { scriptIds: ids },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  vendor = await makeVendor('Alpha Edge Labs');
  otherVendor = await makeVendor('Other Desk');
  // A one-time price and a monthly plan.
  indicator = await createProduct(t, vendor.id, {
    kind: 'indicator',
    title: 'RSI Divergence Pro',
    amount: 5_000,
    extraPrices: [1_500],
  });
  scriptIds = [await addScript(vendor, 'RSI Divergence', 'Rd7Kq2Lm')];
  scriptIds.push(await addScript(vendor, 'RSI Divergence Alerts', 'Ap4Nx8Wc'));
  await bind(vendor, indicator.id, scriptIds);
});

type PaidBuyer = Buyer & { purchaseId: string };

const buy = (priceId = indicator.priceId): Promise<PaidBuyer> =>
  buyPaidProduct(t, vendor.vendorUrl, priceId);

async function access(buyer: { token: string }): Promise<TradingViewAccessResponse> {
  const res = await t.call(r.userTradingViewAccess, { token: buyer.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function setUsername(buyer: { token: string }, username: string) {
  const res = await t.call(r.setTradingViewUsername, { token: buyer.token, body: { username } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TradingViewAccessResponse;
}

/** The vendor's tasks for one buyer's purchase, oldest first. */
async function tasksOf(purchaseId: string, v = vendor, status = 'all') {
  const all: TradingViewTask[] = [];
  let cursor: string | undefined;
  do {
    const res = await t.call(r.vendorTradingViewTasks, {
      token: v.token,
      query: { status, limit: '50', ...(cursor ? { cursor } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
    all.push(...res.json().tasks);
    cursor = res.json().nextCursor ?? undefined;
  } while (cursor);
  return all.filter((task) => task.purchaseId === purchaseId);
}

const complete = (id: string, v = vendor, note?: string) =>
  t.call(r.completeTradingViewTask, {
    token: v.token,
    params: { id },
    body: note ? { note } : {},
  });

/** A buyer whose access the vendor granted on TradingView (the grant task done) as `username`. */
async function grantedBuyer(username: string): Promise<PaidBuyer> {
  const buyer = await buy();
  await setUsername(buyer, username);
  const [grant] = await tasksOf(buyer.purchaseId);
  expect((await complete(grant!.id)).statusCode).toBe(200);
  return buyer;
}

/** The vendor's one pending task for the purchase, which must be a revocation. */
async function pendingRevoke(purchaseId: string): Promise<TradingViewTask> {
  const pending = await tasksOf(purchaseId, vendor, 'pending');
  expect(pending.map((task) => task.kind)).toEqual(['revoke']);
  return pending[0]!;
}

const mailsTo = (to: string, subject: string) =>
  t.smtp.inbox.filter((m) => m.to.includes(to) && m.subject === subject);

async function sandboxAction(purchaseId: string, action: string) {
  // Mail queued in the payment's transaction goes by a job: held until the change committed.
  t.jobs.hold();
  const res = await sandboxPaymentAction(t, purchaseId, action);
  expect(res.statusCode).toBe(303);
  await t.jobs.settle();
}

describe('the buyer’s TradingView username', () => {
  it('refuses malformed names with the error shape and words, and changes nothing', async () => {
    const buyer = await buy();
    const m = tradingViewUsernameMessages;
    for (const [username, message] of [
      ['', m.required],
      ['two words', m.characters],
      ['ab', m.length],
      ['a'.repeat(31), m.length],
      ['_hidden', m.start],
      ['name/with/slash', m.characters],
    ] as const) {
      const res = await t.call(r.setTradingViewUsername, {
        token: buyer.token,
        body: { username },
      });
      expect(res.statusCode, username).toBe(400);
      expect(res.json()).toEqual({
        error: message,
        code: 'validation_failed',
        fields: { username: message },
      });
    }
    const res = await t.call(r.userTradingView, { token: buyer.token });
    expect(res.json()).toEqual({ tradingview: { username: null, changedAt: null } });
    expect(await tasksOf(buyer.purchaseId)).toEqual([]);
  });

  it('reads a pasted @name or profile link down to the name', async () => {
    const buyer = await createBuyer(t);
    expect((await setUsername(buyer, '  @Chart.Wizard-7 ')).tradingview.username).toBe(
      'Chart.Wizard-7',
    );
    const linked = await setUsername(buyer, 'https://www.tradingview.com/u/AlphaTrader_88/');
    expect(linked.tradingview.username).toBe('AlphaTrader_88');
  });
});

describe('a purchase that delivers TradingView scripts', () => {
  it('asks for the username, queues a grant task with an e-mail, and is active once the vendor completes it', async () => {
    const buyer = await buy();
    const before = await access(buyer);
    expect(before.access).toHaveLength(1);
    expect(before.access[0]).toMatchObject({
      purchaseId: buyer.purchaseId,
      product: { id: indicator.id, title: 'RSI Divergence Pro' },
      vendor: { displayName: 'Alpha Edge Labs' },
      status: 'needs_username',
      message: 'Add your TradingView username to get access',
      username: null,
    });
    expect(before.access[0]!.scripts.map((s) => s.name)).toEqual([
      'RSI Divergence',
      'RSI Divergence Alerts',
    ]);
    expect(await tasksOf(buyer.purchaseId)).toEqual([]);

    const name = `trader_${buyer.id.slice(-6).replace(/[^A-Za-z0-9]/g, 'x')}`;
    const set = await setUsername(buyer, name);
    expect(set.access[0]).toMatchObject({
      status: 'waiting',
      message: 'Waiting for Alpha Edge Labs to add you on TradingView',
      username: name,
    });
    const [task] = await tasksOf(buyer.purchaseId, vendor, 'pending');
    expect(task).toMatchObject({
      kind: 'grant',
      status: 'pending',
      username: name,
      product: { id: indicator.id, title: 'RSI Divergence Pro' },
      expiresAt: null,
      reason: 'new_access',
      dueAt: null,
      overdue: false,
    });
    expect(task!.scripts.map((s) => s.url)).toEqual([
      'https://www.tradingview.com/script/Rd7Kq2Lm-RSI-Divergence/',
      'https://www.tradingview.com/script/Ap4Nx8Wc-RSI-Divergence-Alerts/',
    ]);
    const [mail] = mailsTo(vendor.email, `TradingView: add ${name} to RSI Divergence Pro`);
    expect(mail?.raw).toContain(task!.id);
    expect(mail?.raw).toContain('Rd7Kq2Lm');

    // Another vendor sees none of it and cannot complete it.
    expect(await tasksOf(buyer.purchaseId, otherVendor)).toEqual([]);
    const foreign = await complete(task!.id, otherVendor);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'Task not found.', code: 'not_found' });

    const done = await complete(task!.id, vendor, 'Added on TradingView');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().task).toMatchObject({ status: 'done', note: 'Added on TradingView' });
    // Completing again changes nothing.
    const again = await complete(task!.id);
    expect(again.json().task).toEqual(done.json().task);
    expect((await access(buyer)).access[0]).toMatchObject({ status: 'active', message: 'Active' });
  });

  it('creates nothing new when the same events are handed over again, or the same name is saved again', async () => {
    const buyer = await buy();
    await setUsername(buyer, 'Repeat_Buyer');
    const events = await purchaseEvents(t, buyer.purchaseId);
    expect(events.map((e) => e.type)).toEqual(['purchase.paid']);
    const mine = subscribers(() => t.deps).filter((s) => s.name === 'tradingview.access');
    expect(mine).toHaveLength(1);
    for (const event of [...events, ...events])
      await t.database.db.transaction((tx) => mine[0]!.handle(tx, event));
    await setUsername(buyer, 'Repeat_Buyer');
    await t.jobs.settle();
    const tasks = await tasksOf(buyer.purchaseId);
    expect(tasks.map((x) => [x.kind, x.status])).toEqual([['grant', 'pending']]);
    expect(
      mailsTo(vendor.email, 'TradingView: add Repeat_Buyer to RSI Divergence Pro'),
    ).toHaveLength(1);
  });

  it('queues a revocation when a granted purchase is refunded, and reminds the vendor once when it is overdue', async () => {
    const buyer = await grantedBuyer('Refund_Me');

    // Half a refund keeps access.
    await sandboxAction(buyer.purchaseId, 'refund_half');
    expect(await tasksOf(buyer.purchaseId, vendor, 'pending')).toEqual([]);

    await sandboxAction(buyer.purchaseId, 'refund');
    const revoke = await pendingRevoke(buyer.purchaseId);
    expect(revoke).toMatchObject({
      username: 'Refund_Me',
      reason: 'refunded',
      reasonText: 'The purchase was refunded',
      overdue: false,
    });
    expect(revoke.scripts).toHaveLength(2);
    const hours = (Date.parse(revoke.dueAt!) - Date.parse(revoke.createdAt)) / 3_600_000;
    expect(hours).toBeCloseTo(t.config.TRADINGVIEW_REVOKE_GRACE_HOURS, 1);
    expect(
      mailsTo(vendor.email, 'TradingView: remove Refund_Me from RSI Divergence Pro'),
    ).toHaveLength(1);
    expect((await access(buyer)).access[0]).toMatchObject({
      status: 'ended',
      message: 'Ended: refunded',
      endedReason: 'refunded',
    });

    // A day later the revocation is overdue: one reminder, however often the job runs.
    const reminders = () =>
      t.smtp.inbox.filter(
        (m) =>
          m.to.includes(vendor.email) && m.raw.includes(revoke.id) && /Reminder/.test(m.subject),
      );
    await remindOverdue(t.deps, new Date(Date.parse(revoke.dueAt!) - 60_000));
    expect(reminders()).toHaveLength(0);
    const later = new Date(Date.parse(revoke.dueAt!) + 60_000);
    expect(await remindOverdue(t.deps, later)).toBeGreaterThanOrEqual(1);
    expect(await remindOverdue(t.deps, later)).toBe(0);
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0]!.subject).toBe('Reminder: remove Refund_Me on TradingView');

    expect((await complete(revoke.id)).json().task).toMatchObject({ status: 'done' });
    expect(await tasksOf(buyer.purchaseId, vendor, 'pending')).toEqual([]);
  });

  it('queues a revocation when the vendor revokes a granted purchase', async () => {
    const buyer = await grantedBuyer('Revoke_Me');
    t.jobs.hold();
    const res = await t.call(ordersRoutes.vendorRevokeAccess, {
      token: vendor.token,
      params: { id: buyer.purchaseId },
      body: { reason: 'Shared the scripts with a group.' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.jobs.settle();
    expect(await pendingRevoke(buyer.purchaseId)).toMatchObject({
      username: 'Revoke_Me',
      reason: 'revoked',
      reasonText: 'You revoked the purchase',
    });
    expect((await access(buyer)).access[0]).toMatchObject({
      status: 'ended',
      message: 'Ended: revoked by the vendor',
    });
  });

  it('cancels a grant still pending when the purchase is refunded, instead of asking to revoke it', async () => {
    const buyer = await buy();
    await setUsername(buyer, 'Quick_Refund');
    await sandboxAction(buyer.purchaseId, 'refund');
    const tasks = await tasksOf(buyer.purchaseId);
    expect(tasks.map((x) => [x.kind, x.status])).toEqual([['grant', 'cancelled']]);
    expect(tasks[0]!.scripts).toHaveLength(2);
    const late = await complete(tasks[0]!.id);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('conflict');
  });

  it('moves the grant when the buyer changes the username, and undoes both when they change it back', async () => {
    const buyer = await buy();
    await setUsername(buyer, 'First_Name');
    const [first] = await tasksOf(buyer.purchaseId);
    await complete(first!.id);

    const moved = await setUsername(buyer, 'Second_Name');
    expect(moved.access[0]).toMatchObject({ status: 'waiting', username: 'Second_Name' });
    const pending = await tasksOf(buyer.purchaseId, vendor, 'pending');
    expect(pending.map((x) => [x.kind, x.username, x.reason])).toEqual([
      ['revoke', 'First_Name', 'username_changed'],
      ['grant', 'Second_Name', 'username_changed'],
    ]);
    expect(
      mailsTo(vendor.email, 'TradingView: remove First_Name from RSI Divergence Pro'),
    ).toHaveLength(1);

    // Back to the first name before the vendor acted: nothing left to do, access as before.
    const back = await setUsername(buyer, 'first_name');
    expect(back.access[0]).toMatchObject({ status: 'active' });
    expect(await tasksOf(buyer.purchaseId, vendor, 'pending')).toEqual([]);
    const all = await tasksOf(buyer.purchaseId);
    expect(all.map((x) => x.status)).toEqual(['done', 'cancelled', 'cancelled']);
  });

  it('dates a pending grant with a cancelled subscription’s end, and says until when access lasts', async () => {
    const buyer = await buy(indicator.extraPriceIds[0]);
    await setUsername(buyer, 'Monthly_Member');
    const [grant] = await tasksOf(buyer.purchaseId);
    expect(grant!.expiresAt).toBeNull();

    const portal = await t.call(ordersRoutes.customerPortal, {
      token: buyer.token,
      query: { vendorUrl: vendor.vendorUrl },
    });
    expect(portal.statusCode, portal.body).toBe(200);
    const session = await t.database.db.execute<{ id: string }>(
      sql`select subscription_id as id from purchases where id = ${buyer.purchaseId}`,
    );
    const path = new URL(portal.json().session.url).pathname;
    expect((await sandboxPost(t, `${path}/${session.rows[0]!.id}/cancel`)).statusCode).toBe(303);

    const end = (
      await t.database.db.execute<{ current_period_end: string }>(
        sql`select current_period_end from purchases where id = ${buyer.purchaseId}`,
      )
    ).rows[0]!.current_period_end;
    const [dated] = await tasksOf(buyer.purchaseId);
    expect(dated!.expiresAt).toBe(new Date(end).toISOString());
    await complete(dated!.id);
    expect((await access(buyer)).access[0]).toMatchObject({
      status: 'active',
      message: `Active until ${utcDayLabel(end)}`,
    });

    await sandboxAction(buyer.purchaseId, 'end');
    expect((await tasksOf(buyer.purchaseId, vendor, 'pending'))[0]).toMatchObject({
      kind: 'revoke',
      reason: 'subscription_ended',
    });
    expect((await access(buyer)).access[0]!.message).toBe('Ended: subscription ended');
  });

  it('keeps a script two products deliver until neither purchase wants it', async () => {
    const addOn = await createProduct(t, vendor.id, { title: 'Divergence Alerts Add-on' });
    await bind(vendor, addOn.id, [scriptIds[1]!]);
    const buyer = await buy();
    const second = await buyPaidProductAs(buyer, addOn.priceId);
    await setUsername(buyer, 'Two_Products');
    const grants = [...(await tasksOf(buyer.purchaseId)), ...(await tasksOf(second))];
    // Each script once, whichever purchase asked first.
    expect(grants.flatMap((x) => x.scripts.map((s) => s.id)).sort()).toEqual([...scriptIds].sort());
    for (const g of grants) await complete(g.id);

    await sandboxAction(buyer.purchaseId, 'refund');
    const [revoke] = await tasksOf(buyer.purchaseId, vendor, 'pending');
    // The add-on still delivers the alerts script.
    expect(revoke!.scripts.map((s) => s.id)).toEqual([scriptIds[0]]);
    const after = await access(buyer);
    expect(after.access.find((a) => a.product.id === addOn.id)).toMatchObject({
      status: 'active',
    });
  });

  it('gives a script added to a product to its buyers, and takes one removed', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Supertrend Ribbon' });
    const ribbon = await addScript(vendor, 'Supertrend Ribbon', 'St9Rb3Kv');
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, product.priceId);
    await setUsername(buyer, 'Ribbon_Fan');
    expect(await tasksOf(buyer.purchaseId)).toEqual([]);
    expect((await access(buyer)).access).toEqual([]);

    await bind(vendor, product.id, [ribbon]);
    await t.jobs.settle();
    const [grant] = await tasksOf(buyer.purchaseId, vendor, 'pending');
    expect(grant).toMatchObject({ kind: 'grant', reason: 'new_access' });
    await complete(grant!.id);

    await bind(vendor, product.id, []);
    await t.jobs.settle();
    const [revoke] = await tasksOf(buyer.purchaseId, vendor, 'pending');
    expect(revoke).toMatchObject({ kind: 'revoke', reason: 'scripts_changed' });
  });
});

/** The same buyer buys a second product; answers that purchase's id. */
async function buyPaidProductAs(buyer: PaidBuyer, priceId: string): Promise<string> {
  const sessionId = await startProductCheckout(t, buyer, vendor.vendorUrl, { priceId });
  await paySession(t, sessionId);
  return purchaseIdOfSession(t, sessionId);
}

describe('times PostgreSQL refuses (issue 26)', () => {
  it('answers 400 naming `cursor` for a forged task-queue cursor', async () => {
    await expectCursorsRefused((cursor) =>
      t.call(r.vendorTradingViewTasks, { token: vendor.token, query: { cursor } }),
    );
  });
});

describe('the vendor’s scripts', () => {
  it('adds scripts by their TradingView link once, and lists them with their products', async () => {
    const bad = await t.call(r.createTradingViewScript, {
      token: vendor.token,
      body: { name: 'Bad', url: 'https://example.com/script/AbCd1234-x/' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.url).toMatch(/TradingView link/);
    const twice = await t.call(r.createTradingViewScript, {
      token: vendor.token,
      body: {
        name: 'Same page',
        url: 'https://tradingview.com/script/Rd7Kq2Lm-RSI-Divergence',
      },
    });
    expect(twice.statusCode).toBe(409);
    const list = await t.call(r.vendorTradingViewScripts, { token: vendor.token });
    const rsi = list.json().scripts.find((s: { id: string }) => s.id === scriptIds[0]);
    expect(rsi.products).toEqual([{ id: indicator.id, title: 'RSI Divergence Pro' }]);
    const product = await t.call(r.productTradingViewScripts, { params: { id: indicator.id } });
    expect(product.json().scripts.map((s: { name: string }) => s.name)).toEqual([
      'RSI Divergence',
      'RSI Divergence Alerts',
    ]);
  });

  it('answers 404 for another vendor’s products, scripts and tasks, and 403 to non-vendors', async () => {
    const foreignProduct = await t.call(r.setProductTradingViewScripts, {
      token: otherVendor.token,
      params: { id: indicator.id },
      body: { scriptIds: [] },
    });
    expect(foreignProduct.statusCode).toBe(404);
    const own = await createProduct(t, otherVendor.id, { title: 'Other Indicator' });
    const foreignScript = await t.call(r.setProductTradingViewScripts, {
      token: otherVendor.token,
      params: { id: own.id },
      body: { scriptIds: [scriptIds[0]!] },
    });
    expect(foreignScript.statusCode).toBe(404);
    expect(foreignScript.json()).toEqual({ error: 'Script not found.', code: 'not_found' });
    const unknownTask = await complete('tvt_nope');
    expect(unknownTask.statusCode).toBe(404);

    const buyer = await createBuyer(t);
    for (const res of [
      await t.call(r.vendorTradingViewTasks, { token: buyer.token, query: {} }),
      await t.call(r.vendorTradingViewScripts, { token: buyer.token }),
      await t.call(r.completeTradingViewTask, {
        token: buyer.token,
        params: { id: 'tvt_nope' },
        body: {},
      }),
    ])
      expect(res.statusCode).toBe(403);
    // Unchanged by the refused calls.
    expect((await bind(vendor, indicator.id, scriptIds)).product.scripts).toHaveLength(2);
  });
});
