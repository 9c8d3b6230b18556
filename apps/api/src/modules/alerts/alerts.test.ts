import { alertsMessages as m, alertsRoutes as r, developersRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, signedInVendor } from '../../../test/factories/catalog.ts';
import { buyPaidProduct, createBuyer, sandboxPost } from '../../../test/factories/orders.ts';
import { enrolTwoFactor } from '../../../test/factories/two-factor.ts';
import { multipartBody } from '../../../test/http.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { receiver, type Receiver } from '../../../test/receiver.ts';
import { STREAMS_PER_USER } from './live.ts';
import { ALERTS_STREAM_PATH } from './routes.ts';

// `open` may deliver to loopback (as e2e and local receivers need); `guarded` is production's
// guard. Flood and mail settings are small so the tests see them.
let open: TestApp;
let guarded: TestApp;
let hook: Receiver;
beforeAll(async () => {
  hook = await receiver();
  open = await startTestApp({
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    ALERTS_PER_FEED_PER_MINUTE: '8',
    ALERTS_MAIL_BATCH_SECONDS: '0',
    WEBHOOK_DISABLE_AFTER_FAILURES: '2',
  });
  guarded = await startTestApp({});
});
afterAll(async () => {
  await open?.close();
  await guarded?.close();
  await hook?.close();
});

/** A vendor with an alert product (a monthly plan) and its feed's webhook URL path. */
async function alertFeed(t: TestApp) {
  const vendor = await signedInVendor(t);
  const product = await createProduct(t, vendor.id, {
    kind: 'alert',
    title: 'Breakouts',
    extraPrices: [2400],
  });
  const feeds = await t.call(r.vendorAlertFeeds, { token: vendor.token });
  expect(feeds.statusCode, feeds.body).toBe(200);
  const feed = (feeds.json().feeds as Array<{ productId: string; webhookUrl: string }>).find(
    (f) => f.productId === product.id,
  )!;
  return { vendor, product, hookPath: new URL(feed.webhookUrl).pathname };
}

async function subscriber(t: TestApp, vendorUrl: string, priceId: string) {
  const buyer = await buyPaidProduct(t, vendorUrl, priceId);
  await t.jobs.settle();
  return buyer;
}

const postHook = (t: TestApp, path: string, payload: string, contentType = 'text/plain') =>
  t.app.inject({ method: 'POST', url: path, payload, headers: { 'content-type': contentType } });

const alertCount = async (t: TestApp, productId: string) =>
  (
    await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from alerts where product_id = ${productId}`,
    )
  ).rows[0]!.n;

describe('the feed webhook (TradingView shape)', () => {
  it('refuses a wrong secret or feed alike, in the error shape, publishing nothing', async () => {
    const { product, hookPath } = await alertFeed(open);
    const wrong = hookPath.replace(/[^/]+$/, 'a'.repeat(40));
    for (const path of [wrong, hookPath.replace(product.id, 'prd_nope')]) {
      const res = await postHook(open, path, 'NVDA breakout');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: m.badSecret, code: 'not_found' });
    }
    expect(await alertCount(open, product.id)).toBe(0);
    // Guessing is limited per address: the 31st wrong URL in a minute is refused outright.
    const guess = (i: number) =>
      open.app.inject({
        method: 'POST',
        url: wrong.replace(/a{40}$/, String(i).padStart(40, 'b')),
        payload: 'x',
        headers: { 'content-type': 'text/plain' },
        remoteAddress: '203.0.113.9',
      });
    const codes = [];
    for (let i = 0; i < 31; i++) codes.push((await guess(i)).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 404)).toBe(true);
    expect(codes[30]).toBe(429);
  });

  it('reads plain text and TradingView JSON; bad bodies get a 400 that says why', async () => {
    const { product, hookPath } = await alertFeed(open);
    const text = await postHook(open, hookPath, 'BTCUSD crossed 70k');
    expect(text.statusCode, text.body).toBe(202);
    expect(text.json().alert).toMatchObject({ text: 'BTCUSD crossed 70k', source: 'webhook' });

    const json = await postHook(
      open,
      hookPath,
      JSON.stringify({ ticker: 'nasdaq:aapl', action: 'long', close: 224.1, message: 'go' }),
      'application/json; charset=utf-8',
    );
    expect(json.statusCode, json.body).toBe(202);
    expect(json.json().alert).toMatchObject({
      symbol: 'NASDAQ:AAPL',
      side: 'buy',
      price: '224.1',
      text: 'go',
    });

    const bad: Array<[string, string, string]> = [
      ['', 'text/plain', m.badBody],
      ['   ', 'text/plain', m.badBody],
      ['{"ticker": "AAPL"', 'application/json', m.badJson],
      ['[1,2]', 'application/json', m.badBody],
      ['"just a string"', 'application/json', m.badBody],
      [JSON.stringify({ symbol: 'AAPL', side: 'sideways' }), 'application/json', m.side],
      [JSON.stringify({ symbol: 'A'.repeat(40) }), 'application/json', m.symbol],
      [JSON.stringify({ symbol: 'AAPL', price: 'cheap' }), 'application/json', m.price],
      [JSON.stringify({ symbol: { a: 1 } }), 'application/json', m.symbol],
      [JSON.stringify({ price: '1' }), 'application/json', m.empty],
      ['x'.repeat(1001), 'text/plain', m.text],
    ];
    for (const [body, type, message] of bad) {
      const res = await postHook(open, hookPath, body, type);
      expect(res.statusCode, body).toBe(400);
      expect(res.json(), body).toMatchObject({ code: 'validation_failed', error: message });
    }
    // NUL bytes, in text or inside JSON, are refused as everywhere else.
    for (const [body, type] of [
      ['BTC\u0000USD', 'text/plain'],
      [JSON.stringify({ text: 'a\u0000b' }), 'application/json'],
    ]) {
      const res = await postHook(open, hookPath, body!, type);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    // Too large for a webhook body.
    const huge = await postHook(open, hookPath, 'x'.repeat(9000));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toHaveProperty('code');
    expect(await alertCount(open, product.id)).toBe(2);
  });

  it('does not send a replayed alert twice (same id, or the same body without one)', async () => {
    const { product, hookPath } = await alertFeed(open);
    const body = JSON.stringify({ id: 'tv-1', ticker: 'MSFT', action: 'buy' });
    const first = await postHook(open, hookPath, body, 'application/json');
    const again = await postHook(open, hookPath, body, 'application/json');
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({ duplicate: true, alert: { id: first.json().alert.id } });
    const plain = await postHook(open, hookPath, 'same words');
    const plainAgain = await postHook(open, hookPath, 'same words');
    expect(plainAgain.json()).toMatchObject({
      duplicate: true,
      alert: { id: plain.json().alert.id },
    });
    expect(await alertCount(open, product.id)).toBe(2);
  });

  it('rate-limits a flood per feed, and not the other feeds', async () => {
    const { product, hookPath } = await alertFeed(open);
    const other = await alertFeed(open);
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push((await postHook(open, hookPath, `alert ${i}`)).statusCode);
    expect(answers.filter((s) => s === 202)).toHaveLength(8);
    const refused = await postHook(open, hookPath, 'one more');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json().code).toBe('rate_limited');
    expect(await alertCount(open, product.id)).toBe(8);
    expect((await postHook(open, other.hookPath, 'elsewhere')).statusCode).toBe(202);
  });
});

describe('who receives', () => {
  it('fans out only to current holders; a refund stops the next alert', async () => {
    const { vendor, product } = await alertFeed(open);
    const holder = await subscriber(open, vendor.vendorUrl, product.extraPriceIds[0]!);
    const refunded = await subscriber(open, vendor.vendorUrl, product.extraPriceIds[0]!);
    const stranger = await createBuyer(open);

    const publish = (symbol: string) =>
      open.call(r.publishAlert, {
        token: vendor.token,
        params: { productId: product.id },
        body: { symbol, side: 'buy', price: '10.5', text: 'Breakout' },
      });
    const first = await publish('NVDA');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ recipients: 2, duplicate: false });

    const feedOf = (who: { token: string }) =>
      open.call(r.alertFeed, { token: who.token, params: { productId: product.id } });
    const seen = await feedOf(holder);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().alerts).toMatchObject([
      { symbol: 'NVDA', deliveries: [{ channel: 'web', status: 'delivered' }] },
    ]);
    expect((await feedOf(stranger)).statusCode).toBe(403);

    const sandboxId = (
      await open.database.db.execute<{ id: string }>(
        sql`select session_id as id from purchases where id = ${refunded.purchaseId}`,
      )
    ).rows[0]!.id;
    await sandboxPost(open, `/sandbox/payments/${sandboxId}/refund`);
    await open.jobs.settle();

    const next = await publish('AMD');
    expect(next.json().recipients).toBe(1);
    expect((await feedOf(refunded)).statusCode).toBe(403);
    const delivered = await open.database.db.execute<{ user_id: string }>(sql`
      select user_id from alert_deliveries where alert_id = ${next.json().alert.id as string}`);
    expect(delivered.rows.map((d) => d.user_id)).toEqual([holder.id]);

    // The vendor sees the fan-out per channel.
    const view = await open.call(r.vendorAlerts, {
      token: vendor.token,
      params: { productId: product.id },
    });
    expect(view.json().alerts[0]).toMatchObject({
      symbol: 'AMD',
      recipients: 1,
      channels: [
        { channel: 'web', delivered: 1 },
        { channel: 'email', queued: 0, delivered: 0 },
        { channel: 'webhook', queued: 0 },
        // The feed has no Discord channel: nothing posted.
        { channel: 'discord', queued: 0, delivered: 0, failed: 0 },
      ],
    });
    // Another vendor's feed is not found.
    const other = await signedInVendor(open);
    expect(
      (
        await open.call(r.publishAlert, {
          token: other.token,
          params: { productId: product.id },
          body: { text: 'x' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('publishes with an API key that has alerts:write, and refuses one without', async () => {
    const { vendor, product } = await alertFeed(open);
    const tf = await enrolTwoFactor(open, vendor.token);
    const key = async (scopes: string[]) =>
      (
        await open.call(developersRoutes.createApiKey, {
          token: vendor.token,
          body: { name: 'Scanner', scopes, twoFactorCode: tf.nextCode() },
        })
      ).json().secret as string;
    const withScope = await key(['alerts:write']);
    const res = await open.call(r.publishAlert, {
      token: withScope,
      params: { productId: product.id },
      body: { symbol: 'TSLA', side: 'sell', text: 'From my scanner' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().alert.source).toBe('api');
    const without = await open.call(r.publishAlert, {
      token: await key(['sales:read']),
      params: { productId: product.id },
      body: { text: 'x' },
    });
    expect(without.statusCode).toBe(403);
  });
});

describe('feeds', () => {
  it('lists the held feeds to a buyer, and a new webhook URL retires the old one', async () => {
    const { vendor, product, hookPath } = await alertFeed(open);
    const buyer = await subscriber(open, vendor.vendorUrl, product.extraPriceIds[0]!);
    const held = await open.call(r.myAlertFeeds, { token: buyer.token });
    expect(held.json().feeds).toEqual([
      { productId: product.id, title: 'Breakouts', lastAlertAt: null },
    ]);
    expect((await open.call(r.myAlertFeeds, { token: vendor.token })).json().feeds).toEqual([]);

    const rotated = await open.call(r.rotateAlertHook, {
      token: vendor.token,
      params: { productId: product.id },
    });
    const next = new URL(rotated.json().feed.webhookUrl as string).pathname;
    expect(next).not.toBe(hookPath);
    expect((await postHook(open, hookPath, 'old url')).statusCode).toBe(404);
    expect((await postHook(open, next, 'new url')).statusCode).toBe(202);
    // Another vendor cannot rotate it.
    const other = await signedInVendor(open);
    expect(
      (
        await open.call(r.rotateAlertHook, {
          token: other.token,
          params: { productId: product.id },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('channels', () => {
  it('refuses a buyer webhook to loopback or private addresses', async () => {
    const { vendor, product } = await alertFeed(guarded);
    const buyer = await subscriber(guarded, vendor.vendorUrl, product.extraPriceIds[0]!);
    for (const url of ['http://127.0.0.1:9/hook', 'https://10.0.0.1/hook', 'http://[::1]/x']) {
      const res = await guarded.call(r.setAlertChannels, {
        token: buyer.token,
        params: { productId: product.id },
        body: { web: true, email: false, webhookUrl: url },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        fields: { webhookUrl: m.webhookRefused },
      });
    }
  });

  it('signs webhook deliveries (verified by the standardwebhooks package) and mails a batch', async () => {
    const { vendor, product, hookPath } = await alertFeed(open);
    const buyer = await subscriber(open, vendor.vendorUrl, product.extraPriceIds[0]!);
    const set = await open.call(r.setAlertChannels, {
      token: buyer.token,
      params: { productId: product.id },
      body: { web: true, email: true, webhookUrl: hook.url('/alerts') },
    });
    expect(set.statusCode, set.body).toBe(200);
    const secret = set.json().channels.webhook.secret as string;
    expect(secret).toMatch(/^whsec_/);

    const before = hook.got.length;
    // Both alerts are published before any job runs: they fall in one batch.
    open.jobs.hold();
    const sent = await postHook(
      open,
      hookPath,
      JSON.stringify({ ticker: 'ETHUSD', action: 'buy' }),
      'application/json',
    );
    expect(sent.statusCode).toBe(202);
    await open.call(r.publishAlert, {
      token: vendor.token,
      params: { productId: product.id },
      body: { symbol: 'SOLUSD', side: 'sell', text: 'second' },
    });
    await open.jobs.settle();
    const got = hook.got.slice(before);
    expect(got).toHaveLength(2);
    const payload = new Webhook(secret).verify(got[0]!.body, {
      'webhook-id': got[0]!.headers['webhook-id'] as string,
      'webhook-timestamp': got[0]!.headers['webhook-timestamp'] as string,
      'webhook-signature': got[0]!.headers['webhook-signature'] as string,
    }) as { type: string; data: { alert: { id: string; symbol: string } } };
    expect(payload.type).toBe('alert.published');
    expect(payload.data.alert).toMatchObject({ id: sent.json().alert.id, symbol: 'ETHUSD' });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got[0]!.body, {
        'webhook-id': got[0]!.headers['webhook-id'] as string,
        'webhook-timestamp': got[0]!.headers['webhook-timestamp'] as string,
        'webhook-signature': got[0]!.headers['webhook-signature'] as string,
      }),
    ).toThrow();

    // Two alerts in the batch window: one e-mail with both.
    const mails = open.smtp.inbox.filter(
      (x) => x.to.includes(buyer.email) && x.subject.startsWith('Breakouts'),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Breakouts: 2 alerts');
    expect(mails[0]!.raw).toContain('ETHUSD');
    expect(mails[0]!.raw).toContain('SOLUSD');

    // The buyer sees where each alert went.
    const feed = await open.call(r.alertFeed, {
      token: buyer.token,
      params: { productId: product.id },
    });
    expect(feed.json().alerts[0].deliveries).toEqual([
      { channel: 'email', status: 'delivered', reason: null },
      { channel: 'web', status: 'delivered', reason: null },
      { channel: 'webhook', status: 'delivered', reason: null },
    ]);
  });

  it('pauses a failing webhook with an e-mail, and Retry sends what failed', async () => {
    const { vendor, product } = await alertFeed(open);
    const buyer = await subscriber(open, vendor.vendorUrl, product.extraPriceIds[0]!);
    await open.call(r.setAlertChannels, {
      token: buyer.token,
      params: { productId: product.id },
      body: { web: true, email: false, webhookUrl: `${hook.url('/alerts')}?b=${buyer.id}` },
    });
    hook.answer(() => ({ status: 500 }));
    try {
      for (const symbol of ['AAA', 'BBB']) {
        await open.call(r.publishAlert, {
          token: vendor.token,
          params: { productId: product.id },
          body: { symbol },
        });
        await open.jobs.settle();
        await open.database.db.execute(sql`update webhook_messages set next_attempt_at = now()
          where status = 'pending'`);
        await open.deps.webhooks.deliverDue(open.database.db);
      }
    } finally {
      hook.answer(() => ({ status: 204 }));
    }
    await open.jobs.settle();
    const paused = await open.call(r.alertFeed, {
      token: buyer.token,
      params: { productId: product.id },
    });
    expect(paused.json().channels.webhook).toMatchObject({ paused: true });
    // The first failed twice (and paused the webhook); the second waits for the retry.
    expect(paused.json().alerts[1].deliveries).toContainEqual({
      channel: 'webhook',
      status: 'queued',
      reason: 'HTTP 500',
    });
    expect(paused.json().alerts[0].deliveries).toContainEqual({
      channel: 'webhook',
      status: 'queued',
      reason: m.webhookPaused,
    });
    expect(
      open.smtp.inbox.some(
        (x) => x.to.includes(buyer.email) && x.subject === 'Your alert webhook is paused',
      ),
    ).toBe(true);
    // The vendor sees the failure's reason.
    const view = await open.call(r.vendorAlerts, {
      token: vendor.token,
      params: { productId: product.id },
    });
    expect(view.json().alerts[1].failures).toContainEqual({
      channel: 'webhook',
      reason: 'HTTP 500',
      count: 1,
    });

    const retried = await open.call(r.retryAlertWebhook, {
      token: buyer.token,
      params: { productId: product.id },
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().channels.webhook.paused).toBe(false);
    await open.database.db.execute(sql`update webhook_messages set next_attempt_at = now()
      where status = 'pending'`);
    await open.jobs.settle();
    await open.deps.webhooks.deliverDue(open.database.db);
    const after = await open.call(r.alertFeed, {
      token: buyer.token,
      params: { productId: product.id },
    });
    for (const a of after.json().alerts as Array<{ deliveries: unknown[] }>)
      expect(a.deliveries).toContainEqual({
        channel: 'webhook',
        status: 'delivered',
        reason: null,
      });
  });
});

describe('the live stream', () => {
  /** A stream opened over HTTP as the web app opens it, with what it has read so far. */
  async function stream(t: TestApp, token: string) {
    const res = await fetch(`http://127.0.0.1:${t.config.PORT}${ALERTS_STREAM_PATH}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const state = { text: '', ended: false };
    const pump = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        state.text += Buffer.from(value).toString('utf8');
      }
      state.ended = true;
    })().catch(() => (state.ended = true));
    return { state, pump, cancel: () => reader.cancel().catch(() => undefined) };
  }

  it('refuses no token and a bad one, in the error shape', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }] as Array<Record<string, string>>) {
      const res = await fetch(`http://127.0.0.1:${open.config.PORT}${ALERTS_STREAM_PATH}`, {
        headers,
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('unauthorized');
    }
  });

  it('sends a holder each alert at once; one account holds a few streams, the oldest ends', async () => {
    const { vendor, product, hookPath } = await alertFeed(open);
    const buyer = await subscriber(open, vendor.vendorUrl, product.priceId);
    const outsider = await createBuyer(open);
    const streams: Array<Awaited<ReturnType<typeof stream>>> = [];
    for (let i = 0; i <= STREAMS_PER_USER; i++) streams.push(await stream(open, buyer.token));
    const theirs = await stream(open, outsider.token);
    // The first of one too many has ended; the rest stay open.
    await streams[0]!.pump;
    expect(streams[0]!.state.ended).toBe(true);
    expect(streams[0]!.state.text).toContain('event: closed\ndata: {"reason":"too_many_streams"}');
    const res = await postHook(open, hookPath, 'BTCUSD crossed 70000');
    expect(res.statusCode, res.body).toBe(202);
    const alertId = res.json().alert.id as string;
    await expect
      .poll(() => streams.slice(1).every((s) => s.state.text.includes(alertId)), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(streams[0]!.state.text).not.toContain(alertId);
    expect(theirs.state.text).not.toContain(alertId);
    for (const s of [...streams, theirs]) await s.cancel();
  });
});

describe('chart pictures', () => {
  const addPicture = async (t: TestApp, token: string, productId: string) => {
    const data = await sharp({
      create: { width: 1600, height: 900, channels: 3, background: '#0b1220' },
    })
      .png()
      .toBuffer();
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'chart.png', type: 'image/png', data },
    ]);
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/vendor/alert-feeds/${productId}/images`,
      payload: body,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    });
  };

  it('an alert carries a picture added to its feed: absolute, in the answer and the buyer feed', async () => {
    const { vendor, product } = await alertFeed(open);
    const buyer = await subscriber(open, vendor.vendorUrl, product.priceId);
    const added = await addPicture(open, vendor.token, product.id);
    expect(added.statusCode, added.body).toBe(201);
    const { imageId, imageUrl } = added.json() as { imageId: string; imageUrl: string };
    // Absolute, so a buyer's automation can fetch it; cleaned to at most 1 200 px.
    expect(imageUrl).toMatch(/^http:\/\/.+\/files\/public\/alerts\/.+\/1200\.jpg$/);
    expect((await open.app.inject(new URL(imageUrl).pathname)).statusCode).toBe(200);
    const sent = await open.call(r.publishAlert, {
      token: vendor.token,
      params: { productId: product.id },
      body: { symbol: 'ES1!', side: 'buy', text: 'Range break', image: imageId },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().alert.imageUrl).toBe(imageUrl);
    const feed = await open.call(r.alertFeed, {
      token: buyer.token,
      params: { productId: product.id },
    });
    expect(feed.json().alerts[0].imageUrl).toBe(imageUrl);
  });

  it("refuses another feed's picture, a made-up one, and a buyer adding one", async () => {
    const mine = await alertFeed(open);
    const theirs = await alertFeed(open);
    const other = (await addPicture(open, theirs.vendor.token, theirs.product.id)).json()
      .imageId as string;
    for (const image of [other, `public/alerts/${mine.product.id}/nope/1200x675`, '../x']) {
      const res = await open.call(r.publishAlert, {
        token: mine.vendor.token,
        params: { productId: mine.product.id },
        body: { text: 'x', image },
      });
      expect(res.statusCode, image).toBe(400);
      expect(res.json().fields.image).toBe(m.image);
    }
    expect(await alertCount(open, mine.product.id)).toBe(0);
    const buyer = await createBuyer(open);
    expect((await addPicture(open, buyer.token, mine.product.id)).statusCode).toBe(403);
    expect((await addPicture(open, theirs.vendor.token, mine.product.id)).statusCode).toBe(404);
  });
});
