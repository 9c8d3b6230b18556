import {
  developersRoutes as r,
  ordersRoutes,
  vendorProductsRoutes,
  vendorSalesRoutes,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, signedInVendor, type Vendor } from '../../../test/factories/catalog.ts';
import { buyPaidProduct, deliverEvent } from '../../../test/factories/orders.ts';
import { enrolTwoFactor, type Enrolled } from '../../../test/factories/two-factor.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { receiver, type Receiver } from '../../../test/receiver.ts';
import { sha256 } from '../../lib.ts';
import { isPublicAddress, parseOutboundUrl } from '../../platform/outbound-url.ts';

// `open` may deliver to loopback (WEBHOOKS_ALLOW_PRIVATE, as e2e and local receivers need);
// `guarded` is production's guard, with a resolver of the test's own for names.
let open: TestApp;
let guarded: TestApp;
let hook: Receiver;
const names: Record<string, string[]> = {
  'public.test': ['93.184.216.34'],
  'private.test': ['10.1.2.3'],
  'mixed.test': ['93.184.216.34', '192.168.1.10'],
};
beforeAll(async () => {
  hook = await receiver();
  open = await startTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
  guarded = await startTestApp(
    {},
    {
      resolve: async (host) => {
        const found = names[host];
        if (!found) throw new Error(`ENOTFOUND ${host}`);
        return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      },
    },
  );
  // Delivery runs only when a test asks (`deliver`), not from the wake-up jobs.
  open.jobs.hold();
  guarded.jobs.hold();
});
afterAll(async () => {
  await open?.close();
  await guarded?.close();
  await hook?.close();
});

async function vendorWithTwoFactor(t: TestApp): Promise<Vendor & { token: string; tf: Enrolled }> {
  const v = await signedInVendor(t);
  return { ...v, tf: await enrolTwoFactor(t, v.token) };
}

async function createKey(
  t: TestApp,
  v: { token: string; tf: Enrolled },
  scopes: string[],
): Promise<string> {
  const res = await t.call(r.createApiKey, {
    token: v.token,
    body: { name: 'Zapier', scopes, twoFactorCode: v.tf.nextCode() },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().secret as string;
}

async function createEndpoint(
  t: TestApp,
  token: string,
  url: string,
  eventTypes: string[] = ['sale.completed', 'sale.refunded'],
) {
  const res = await t.call(r.createWebhookEndpoint, { token, body: { url, eventTypes } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { endpoint: { id: string }; secret: string };
}

/**
 * Domain events delivered (the fan-out), then what the outbox has due sent. The apps' jobs are
 * held (see `beforeAll`), so this is the only delivery run and its counts are the whole story.
 */
async function deliver(t: TestApp) {
  await t.deps.events.deliverDue(t.database.db);
  return t.deps.webhooks.deliverDue(t.database.db);
}

const dueNow = (t: TestApp, endpointId: string) =>
  t.database.db.execute(sql`update webhook_messages set next_attempt_at = now()
    where endpoint_id = ${endpointId} and status = 'pending'`);

async function messages(t: TestApp, endpointId: string) {
  const { rows } = await t.database.db.execute<{
    id: string;
    type: string;
    status: string;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
    wait: number;
  }>(sql`select id, type, status, attempts, last_status, last_error,
      extract(epoch from next_attempt_at - now())::float as wait
    from webhook_messages where endpoint_id = ${endpointId} order by seq`);
  return rows;
}

const to = (path: string) => hook.got.filter((g) => g.path === path);

describe('API keys', () => {
  it('are made only with two-factor on and a current code, shown once and kept hashed', async () => {
    const v = await signedInVendor(open);
    const body = { name: 'Reporting', scopes: ['sales:read'] };
    const off = await open.call(r.createApiKey, { token: v.token, body });
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({
      code: 'forbidden',
      error: 'Turn on two-factor authentication first.',
    });
    const tf = await enrolTwoFactor(open, v.token);
    const noCode = await open.call(r.createApiKey, { token: v.token, body });
    expect(noCode.statusCode).toBe(403);
    expect(noCode.json().fields).toHaveProperty('twoFactorCode');
    const wrong = await open.call(r.createApiKey, {
      token: v.token,
      body: { ...body, twoFactorCode: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect((await open.call(r.vendorApiKeys, { token: v.token })).json().apiKeys).toEqual([]);

    const made = await open.call(r.createApiKey, {
      token: v.token,
      body: { ...body, twoFactorCode: tf.nextCode() },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { secret, apiKey } = made.json();
    expect(secret).toMatch(/^tsk_test_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    // Listed without the secret, ever again.
    const listed = await open.call(r.vendorApiKeys, { token: v.token });
    expect(listed.body).not.toContain(secret.slice(-43));
    expect(listed.json().apiKeys).toEqual([
      expect.objectContaining({ id: apiKey.id, scopes: ['sales:read'], lastUsedAt: null }),
    ]);
    // At rest: the SHA-256 of the key, and no column holding the key or its secret part.
    const { rows } = await open.database.db.execute(
      sql`select * from api_keys where id = ${apiKey.id}`,
    );
    expect(rows[0]).toMatchObject({ secret_hash: sha256(secret) });
    expect(JSON.stringify(rows[0])).not.toContain(secret.slice(-43));
  });

  it('reach only the routes their scopes name, for their own storefront', async () => {
    const v = await vendorWithTwoFactor(open);
    const other = await signedInVendor(open);
    const theirs = await createProduct(open, other.id, { amount: 2_000 });
    const sold = await buyPaidProduct(open, other.vendorUrl, theirs.priceId);
    const read = await createKey(open, v, ['sales:read']);

    const sales = await open.call(ordersRoutes.vendorSales, { token: read });
    expect(sales.statusCode, sales.body).toBe(200);
    expect(sales.json().sales).toEqual([]);
    // "Last used" is set by a call.
    const listed = await open.call(r.vendorApiKeys, { token: v.token });
    expect(listed.json().apiKeys[0].lastUsedAt).not.toBeNull();

    // A read key cannot write: 403 in the contract's shape, and nothing was made.
    const write = await open.call(vendorProductsRoutes.createVendorProduct, {
      token: read,
      body: {
        kind: 'indicator',
        title: 'Made by a key',
        summary: 'Should not exist.',
        description: 'Nothing.',
        plans: [{ billing: 'one_time', amount: 4900, currency: 'usd' }],
      },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({
      code: 'forbidden',
      error: 'This API key does not have the products:write scope.',
    });
    const made = await open.database.db.execute(
      sql`select 1 from products where title = 'Made by a key'`,
    );
    expect(made.rows).toEqual([]);

    // Another vendor's sale is not found, as for a session.
    const foreign = await open.call(vendorSalesRoutes.vendorSale, {
      token: read,
      params: { id: sold.purchaseId },
    });
    expect(foreign.statusCode).toBe(404);
    // A products key writes, but another storefront's product is not found either.
    const writer = await createKey(open, v, ['products:write']);
    const edit = await open.call(vendorProductsRoutes.updateVendorProduct, {
      token: writer,
      params: { id: theirs.id },
      body: {
        kind: 'indicator',
        title: 'Taken over',
        summary: 'No.',
        description: 'No.',
        plans: [{ billing: 'one_time', amount: 100, currency: 'usd' }],
      },
    });
    expect(edit.statusCode).toBe(404);

    // Never a buyer's, account's or the key screens' routes.
    for (const [route, opts] of [
      [ordersRoutes.purchaseList, {}],
      [r.vendorApiKeys, {}],
    ] as const) {
      const res = await open.call(route, { token: read, ...opts });
      expect(res.statusCode, route.path).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }

    // Revoked: 401, at once.
    const id = listed.json().apiKeys[0].id as string;
    expect((await open.call(r.revokeApiKey, { token: v.token, params: { id } })).statusCode).toBe(
      200,
    );
    const after = await open.call(ordersRoutes.vendorSales, { token: read });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('invalid_token');
    // Another vendor cannot revoke it (or see it).
    const stranger = await open.call(r.revokeApiKey, { token: other.token, params: { id } });
    expect(stranger.statusCode).toBe(404);
    // A made-up key of the right shape: 401 as well.
    const guessed = `tsk_test_${'0'.repeat(16)}_${'A'.repeat(43)}`;
    expect((await open.call(ordersRoutes.vendorSales, { token: guessed })).statusCode).toBe(401);
  });
});

describe('webhooks', () => {
  it('deliver a sale signed the Standard Webhooks way, once, and resend it with the same id', async () => {
    const v = await signedInVendor(open);
    const product = await createProduct(open, v.id, { amount: 3_000 });
    const { endpoint, secret } = await createEndpoint(open, v.token, hook.url('/signed'));
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const sold = await buyPaidProduct(open, v.vendorUrl, product.priceId);
    expect(await deliver(open)).toEqual({ delivered: 1, failed: 0 });
    // Delivering again sends nothing more.
    expect(await deliver(open)).toEqual({ delivered: 0, failed: 0 });

    const [first] = to('/signed');
    expect(to('/signed')).toHaveLength(1);
    // Verified by an independent implementation (npm `standardwebhooks`).
    const payload = new Webhook(secret).verify(first!.body, {
      'webhook-id': first!.headers['webhook-id'] as string,
      'webhook-timestamp': first!.headers['webhook-timestamp'] as string,
      'webhook-signature': first!.headers['webhook-signature'] as string,
    }) as { id: string; type: string; version: number; data: { sale: { id: string } } };
    expect(payload).toMatchObject({ type: 'sale.completed', version: 1 });
    expect(payload.data.sale.id).toBe(sold.purchaseId);
    // A wrong secret does not verify.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(first!.body, {
        'webhook-id': first!.headers['webhook-id'] as string,
        'webhook-timestamp': first!.headers['webhook-timestamp'] as string,
        'webhook-signature': first!.headers['webhook-signature'] as string,
      }),
    ).toThrow();

    const log = await open.call(r.webhookDeliveries, {
      token: v.token,
      params: { id: endpoint.id },
    });
    expect(log.json().deliveries).toEqual([
      expect.objectContaining({
        id: first!.headers['webhook-id'],
        type: 'sale.completed',
        status: 'delivered',
        attempts: 1,
        responseStatus: 204,
      }),
    ]);
    const resent = await open.call(r.resendWebhookDelivery, {
      token: v.token,
      params: { id: endpoint.id, deliveryId: first!.headers['webhook-id'] as string },
    });
    expect(resent.statusCode, resent.body).toBe(200);
    await deliver(open);
    const [, again] = to('/signed');
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(again!.body).toBe(first!.body);
    expect(
      new Webhook(secret).verify(again!.body, again!.headers as Record<string, string>),
    ).toEqual(payload);
    // Another vendor cannot resend it, read the log or the secret.
    const other = await signedInVendor(open);
    for (const route of [r.webhookDeliveries, r.webhookEndpointSecret, r.sendTestWebhook]) {
      const res = await open.call(route, { token: other.token, params: { id: endpoint.id } });
      expect(res.statusCode, route.path).toBe(404);
    }
    // The secret reads back for its owner; a test event goes out signed with it.
    const read = await open.call(r.webhookEndpointSecret, {
      token: v.token,
      params: { id: endpoint.id },
    });
    expect(read.json().secret).toBe(secret);
    const test = await open.call(r.sendTestWebhook, {
      token: v.token,
      params: { id: endpoint.id },
    });
    expect(test.statusCode).toBe(201);
    await deliver(open);
    const sent = to('/signed').at(-1)!;
    expect(
      new Webhook(secret).verify(sent.body, sent.headers as Record<string, string>),
    ).toMatchObject({ type: 'webhook.test' });
  });

  it('go out in order per object: a refund waits for its sale to be delivered', async () => {
    const v = await signedInVendor(open);
    const product = await createProduct(open, v.id, { amount: 5_000 });
    const { endpoint } = await createEndpoint(open, v.token, hook.url('/ordered'));
    let refuse = true;
    hook.answer((req) => ({ status: req.path === '/ordered' && refuse ? 503 : 204 }));
    // What /metrics says of vendor webhooks sent (issue 32), before and after.
    const sent = async () => {
      const text = await open.deps.metrics.text();
      const value = (series: string) =>
        Number(
          text
            .split('\n')
            .find((l) => l.startsWith(`${series} `))
            ?.split(' ')[1] ?? 0,
        );
      return {
        delivered: value('tradeshelf_webhooks_sent_total{owner="vendor",outcome="delivered"}'),
        failed: value('tradeshelf_webhooks_sent_total{owner="vendor",outcome="failed"}'),
        lagged: value('tradeshelf_webhook_delivery_lag_seconds_count{owner="vendor"}'),
      };
    };
    const before = await sent();
    try {
      const sold = await buyPaidProduct(open, v.vendorUrl, product.priceId);
      expect(await deliver(open)).toEqual({ delivered: 0, failed: 1 });
      const refunded = await deliverEvent(open, {
        id: `evt_rf_${sold.purchaseId}`,
        type: 'refund',
        purchaseId: sold.purchaseId,
      });
      expect(refunded.statusCode).toBe(200);
      // The refund is queued but not sent while the sale before it is still pending.
      expect(await deliver(open)).toEqual({ delivered: 0, failed: 0 });
      expect((await messages(open, endpoint.id)).map((m) => [m.type, m.status])).toEqual([
        ['sale.completed', 'pending'],
        ['sale.refunded', 'pending'],
      ]);
      refuse = false;
      await dueNow(open, endpoint.id);
      expect(await deliver(open)).toEqual({ delivered: 2, failed: 0 });
      const after = await sent();
      expect({
        delivered: after.delivered - before.delivered,
        failed: after.failed - before.failed,
        lagged: after.lagged - before.lagged,
      }).toEqual({ delivered: 2, failed: 1, lagged: 2 });
      expect(
        to('/ordered')
          .filter((g) => g.body)
          .map((g) => (JSON.parse(g.body) as { type: string }).type),
      ).toEqual(['sale.completed', 'sale.completed', 'sale.refunded']);
    } finally {
      hook.answer(() => ({ status: 204 }));
    }
  });

  it('retry with backoff, turn the endpoint off after 15 failures in a row and e-mail the vendor', async () => {
    const v = await signedInVendor(open);
    const product = await createProduct(open, v.id, { amount: 1_500 });
    const { endpoint } = await createEndpoint(open, v.token, hook.url('/down'));
    hook.answer((req) => ({ status: req.path === '/down' ? 500 : 204 }));
    try {
      await buyPaidProduct(open, v.vendorUrl, product.priceId);
      await deliver(open);
      let [m] = await messages(open, endpoint.id);
      expect(m).toMatchObject({ status: 'pending', attempts: 1, last_status: 500 });
      // 10 s, then doubling.
      expect(m!.wait).toBeGreaterThan(8);
      expect(m!.wait).toBeLessThanOrEqual(10);
      await dueNow(open, endpoint.id);
      await deliver(open);
      [m] = await messages(open, endpoint.id);
      expect(m!.wait).toBeGreaterThan(18);
      expect(m!.wait).toBeLessThanOrEqual(20);
      for (let i = 3; i <= 15; i++) {
        await dueNow(open, endpoint.id);
        expect(await deliver(open)).toEqual({ delivered: 0, failed: 1 });
      }
      const [listed] = (await open.call(r.vendorWebhookEndpoints, { token: v.token })).json()
        .endpoints as Array<{ enabled: boolean; disabledReason: string | null }>;
      expect(listed).toMatchObject({ enabled: false, disabledReason: 'failing' });
      // Nothing more is tried while it is off.
      await dueNow(open, endpoint.id);
      expect(await deliver(open)).toEqual({ delivered: 0, failed: 0 });
      const mail = open.smtp.inbox.find(
        (x) => x.to.includes(v.email) && x.subject === 'Webhook endpoint turned off',
      );
      const text = mail?.raw.replace(/=\r?\n/g, '');
      expect(text).toContain(hook.url('/down'));
      expect(text).toContain('15 failed deliveries');

      // Turned back on (and fixed), what waited goes out.
      hook.answer(() => ({ status: 204 }));
      const on = await open.call(r.updateWebhookEndpoint, {
        token: v.token,
        params: { id: endpoint.id },
        body: { enabled: true },
      });
      expect(on.json().endpoint).toMatchObject({ enabled: true, consecutiveFailures: 0 });
      await dueNow(open, endpoint.id);
      expect(await deliver(open)).toEqual({ delivered: 1, failed: 0 });
    } finally {
      hook.answer(() => ({ status: 204 }));
    }
  });

  it('give up on a message after its day, letting the next one of its object go', async () => {
    const v = await signedInVendor(open);
    const product = await createProduct(open, v.id, { amount: 1_000 });
    const { endpoint } = await createEndpoint(open, v.token, hook.url('/late'));
    hook.answer((req) => ({ status: req.path === '/late' ? 500 : 204 }));
    try {
      const sold = await buyPaidProduct(open, v.vendorUrl, product.priceId);
      await deliver(open);
      await deliverEvent(open, {
        id: `evt_rf_${sold.purchaseId}`,
        type: 'refund',
        purchaseId: sold.purchaseId,
      });
      await open.database.db.execute(sql`update webhook_messages set give_up_at = now()
        where endpoint_id = ${endpoint.id} and type = 'sale.completed'`);
      await dueNow(open, endpoint.id);
      // The sale's last try fails (its day is over): given up, and the refund behind it goes.
      hook.answer((req) => ({
        status: req.path === '/late' && !req.body.includes('sale.refunded') ? 500 : 204,
      }));
      expect(await deliver(open)).toEqual({ delivered: 1, failed: 1 });
      expect((await messages(open, endpoint.id)).map((m) => [m.type, m.status])).toEqual([
        ['sale.completed', 'failed'],
        ['sale.refunded', 'delivered'],
      ]);
    } finally {
      hook.answer(() => ({ status: 204 }));
    }
  });

  it('do not follow redirects', async () => {
    const v = await signedInVendor(open);
    const { endpoint } = await createEndpoint(open, v.token, hook.url('/moved'));
    hook.answer((req) =>
      req.path === '/moved'
        ? { status: 302, headers: { location: hook.url('/redirected') } }
        : { status: 204 },
    );
    try {
      await open.call(r.sendTestWebhook, { token: v.token, params: { id: endpoint.id } });
      expect(await deliver(open)).toEqual({ delivered: 0, failed: 1 });
      expect(to('/redirected')).toEqual([]);
      const [m] = await messages(open, endpoint.id);
      expect(m).toMatchObject({ status: 'pending', last_status: 302 });
      expect(m!.last_error).toContain('redirects are not followed');
    } finally {
      hook.answer(() => ({ status: 204 }));
    }
  });
});

describe('the address guard', () => {
  it('refuses private, loopback, link-local and metadata addresses, as literals and by name', async () => {
    const v = await signedInVendor(guarded);
    for (const url of [
      'http://127.0.0.1/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/hook',
      'http://0.0.0.0/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[fd00::1]/hook',
      'http://100.64.0.1/hook',
      'http://2130706433/hook', // 127.0.0.1 written as a number
      'http://private.test/hook',
      'http://mixed.test/hook',
      'http://nowhere.test/hook',
      'ftp://public.test/hook',
      'http://user:pw@public.test/hook',
    ]) {
      const res = await guarded.call(r.createWebhookEndpoint, {
        token: v.token,
        body: { url, eventTypes: ['sale.completed'] },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().fields, url).toHaveProperty('url');
    }
    // The real resolver: `localhost` is loopback.
    const local = await open.call(r.createWebhookEndpoint, {
      token: (await signedInVendor(open)).token,
      body: { url: 'https://localhost/hook', eventTypes: ['sale.completed'] },
    });
    expect(local.statusCode).toBe(201); // allowed only because `open` allows private addresses
    const { checkOutboundUrl } = await import('../../platform/outbound-url.ts');
    await expect(
      checkOutboundUrl('https://localhost/hook', { allowHttp: false, allowPrivate: false }),
    ).rejects.toMatchObject({ problem: 'refused' });
    expect(
      (await guarded.call(r.vendorWebhookEndpoints, { token: v.token })).json().endpoints,
    ).toEqual([]);

    // https only where http is not allowed (production).
    expect(() =>
      parseOutboundUrl('http://public.test/', { allowHttp: false, allowPrivate: false }),
    ).toThrow('https only');
    for (const a of [
      '127.0.0.1',
      '::1',
      '169.254.169.254',
      '10.0.0.1',
      '0.0.0.0',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      'fe80::1',
      '224.0.0.1',
    ])
      expect(isPublicAddress(a), a).toBe(false);
    for (const a of ['93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPublicAddress(a), a).toBe(true);
  });

  it('checks the address again at delivery: a name that now resolves privately is not called', async () => {
    const v = await signedInVendor(guarded);
    const made = await guarded.call(r.createWebhookEndpoint, {
      token: v.token,
      body: { url: 'http://rebind.test/hook', eventTypes: ['sale.completed'] },
    });
    expect(made.statusCode).toBe(400); // unknown name: not saved
    names['rebind.test'] = ['93.184.216.34'];
    const saved = await guarded.call(r.createWebhookEndpoint, {
      token: v.token,
      body: { url: 'http://rebind.test/hook', eventTypes: ['sale.completed'] },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    // The DNS answer changes to the receiver on this machine (a rebinding attack).
    names['rebind.test'] = ['127.0.0.1'];
    const id = saved.json().endpoint.id as string;
    await guarded.call(r.sendTestWebhook, { token: v.token, params: { id } });
    const before = hook.got.length;
    expect(await deliver(guarded)).toEqual({ delivered: 0, failed: 1 });
    expect(hook.got.length).toBe(before);
    const [m] = await messages(guarded, id);
    expect(m!.last_error).toMatch(/^Refused: rebind\.test is a private or local address/);
  });
});
