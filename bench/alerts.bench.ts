/**
 * Issue 31 (ADR 059): one alert to N subscribers (`BENCH_ALERT_SUBSCRIBERS`, default 10 000) on the
 * app as `npm start` runs it (pg-boss and its worker in process). Holders are seeded in SQL: every
 * one takes web, 10 % also e-mail, 10 % a webhook to a loopback receiver in this process; 50 of the
 * web holders keep a live stream open over real HTTP. Per round the vendor POSTs one alert and we
 * time: the POST's answer (every delivery is queued in the publishing transaction: web rows, e-mail
 * rows, the webhook engine's messages), the last live stream receiving it, and the last webhook
 * receiver call. Baseline in the same run, alternating: N bare pg-boss job inserts (`boss.insert`,
 * one call) into a queue of its own. Printed p50/p95 over rounds, with ratios to the baseline.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { alertsRoutes as r } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { startBenchApp } from './lib.ts';

const N = Number(process.env.BENCH_ALERT_SUBSCRIBERS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const STREAMS = Math.min(50, N);
const TIMEOUT_MS = 120_000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;

export async function run(): Promise<void> {
  // The receiver: when each alert's webhook calls arrived.
  const hookArrivals = new Map<string, number[]>();
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const id = (JSON.parse(body) as { id: string }).id;
      const list = hookArrivals.get(id) ?? [];
      list.push(performance.now());
      hookArrivals.set(id, list);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/a`;

  const s = await startBenchApp(null, {
    queue: true,
    env: {
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      ALERTS_PER_FEED_PER_MINUTE: '1000000',
      ALERTS_DEMO_SIGNAL_MINUTES: '0',
    },
  });
  const db = s.database.db;
  try {
    // A vendor, an alert product and N holders, seeded in SQL (a bench of the fan-out, not checkout).
    await db.execute(sql`insert into users (id, email, password_hash, roles, username)
      values ('usr_bv', 'vendor@bench.test', 'x', array['buyer','vendor'], 'bench_vendor')`);
    await db.execute(sql`insert into vendors (id, user_id, vendor_url, display_name, bio)
      values ('ven_b', 'usr_bv', 'bench-alerts', 'Bench Alerts', '')`);
    await db.execute(sql`insert into products (id, vendor_id, kind, category, slug, title, summary,
        description, tags, platforms, asset_classes, is_active, default_price_id, sort_amount)
      values ('prd_b', 'ven_b', 'alert', 'alerts', 'bench-alerts', 'Bench Alerts', 'x', '',
        '{}', '{tradingview}', '{}', true, 'price_b', 2400)`);
    await db.execute(sql`insert into prices (id, product_id, amount, currency, scheme, position)
      values ('price_b', 'prd_b', 2400, 'usd', 'one_time', 0)`);
    await db.execute(sql`insert into users (id, email, password_hash, roles)
      select 'usr_b' || i, 'b' || i || '@bench.test', 'x', array['buyer'] from generate_series(1, ${N}) i`);
    await db.execute(sql`insert into purchases (id, buyer_id, vendor_id, provider, idempotency_key,
        request_hash, status, item_type, product_id, price_id, scheme, currency, subtotal, total, paid_at,
        expires_at)
      select 'pur_b' || i, 'usr_b' || i, 'ven_b', 'stripe', 'k' || i, 'h', 'paid', 'product', 'prd_b',
        'price_b', 'one_time', 'usd', 2400, 2400, now(), now() from generate_series(1, ${N}) i`);
    await db.execute(sql`insert into entitlements (id, purchase_id, user_id, product_id, kind)
      select 'ent_b' || i, 'pur_b' || i, 'usr_b' || i, 'prd_b', 'access' from generate_series(1, ${N}) i`);
    const { sealed } = s.deps.webhooks.newSecret();
    const tenth = Math.floor(N / 10);
    await db.execute(sql`insert into webhook_endpoints (id, owner_kind, owner_id, url, event_types, secret_sealed)
      select 'whe_b' || i, 'alert-buyer', 'usr_b' || i, ${hookUrl}, array['alert.published'], ${sealed}
      from generate_series(1, ${tenth}) i`);
    await db.execute(sql`insert into alert_subscriptions (user_id, product_id, web, email, webhook_endpoint_id)
      select 'usr_b' || i, 'prd_b', true, i > ${tenth} and i <= ${2 * tenth},
        case when i <= ${tenth} then 'whe_b' || i end
      from generate_series(1, ${2 * tenth}) i`);
    await db.execute(sql`analyze`);

    // Live streams of some web holders (those with no other channel), over real HTTP.
    const streamArrivals = new Map<string, number[]>();
    const streams: http.ClientRequest[] = [];
    for (let i = 0; i < STREAMS; i++) {
      const user = `usr_b${N - i}`;
      const token = await s.deps.tokens.sign({ sub: user, email: `${user}@b`, roles: ['buyer'] });
      await new Promise<void>((ready, fail) => {
        const req = http.get(
          `${s.url}/api/v1/alerts-stream`,
          { headers: { authorization: `Bearer ${token}` } },
          (res) => {
            let buffer = '';
            res.on('data', (c: Buffer) => {
              buffer += c.toString();
              for (let end; (end = buffer.indexOf('\n\n')) >= 0;) {
                const frame = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                const data = /^data: (.*)$/m.exec(frame)?.[1];
                if (!data) continue;
                const id = (JSON.parse(data) as { alert: { id: string } }).alert.id;
                const list = streamArrivals.get(id) ?? [];
                list.push(performance.now());
                streamArrivals.set(id, list);
              }
            });
            ready();
          },
        );
        req.on('error', fail);
        streams.push(req);
      });
    }
    const vendorToken = await s.deps.tokens.sign({
      sub: 'usr_bv',
      email: 'vendor@bench.test',
      roles: ['buyer', 'vendor'],
    });
    const boss = s.deps.boss!;
    await boss.createQueue('bench.alerts-baseline');

    const queued: number[] = [];
    const live: number[] = [];
    const hooked: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const t0 = performance.now();
      await boss.insert(
        Array.from({ length: N }, (_, i) => ({ name: 'bench.alerts-baseline', data: { i } })),
      );
      const tBare = performance.now() - t0;

      const start = performance.now();
      const res = await fetch(`${s.url}${r.publishAlert.path.replace('{productId}', 'prd_b')}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${vendorToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ symbol: 'NVDA', side: 'buy', text: `round ${round}` }),
      });
      const tQueued = performance.now() - start;
      if (res.status !== 201) throw new Error(`publish: ${res.status} ${await res.text()}`);
      const { alert, recipients } = (await res.json()) as {
        alert: { id: string };
        recipients: number;
      };
      if (recipients !== N) throw new Error(`sent to ${recipients}, not ${N}`);
      const deadline = Date.now() + TIMEOUT_MS;
      while (
        (streamArrivals.get(alert.id)?.length ?? 0) < STREAMS ||
        (hookArrivals.get(alert.id)?.length ?? 0) < tenth
      ) {
        if (Date.now() > deadline)
          throw new Error(
            `round ${round}: ${streamArrivals.get(alert.id)?.length ?? 0}/${STREAMS} streams, ${hookArrivals.get(alert.id)?.length ?? 0}/${tenth} webhooks`,
          );
        await new Promise((done) => setTimeout(done, 20));
      }
      // Round 0 warms up (plans, pools, JIT): not counted.
      if (round === 0) continue;
      bare.push(tBare);
      queued.push(tQueued);
      live.push(Math.max(...streamArrivals.get(alert.id)!) - start);
      hooked.push(Math.max(...hookArrivals.get(alert.id)!) - start);
    }
    for (const req of streams) req.destroy();
    await boss.deleteQueue('bench.alerts-baseline').catch(() => undefined);

    const p50b = pct(bare, 50);
    const p95b = pct(bare, 95);
    const line = (label: string, xs: number[]) =>
      console.log(
        `  ${label.padEnd(44)} p50 ${ms(pct(xs, 50)).padStart(8)} (${(pct(xs, 50) / p50b).toFixed(2)}x)   p95 ${ms(pct(xs, 95)).padStart(8)} (${(pct(xs, 95) / p95b).toFixed(2)}x)`,
      );
    console.log(
      `\nalerts: one alert to ${N} holders (all web, ${tenth} e-mail, ${tenth} webhook; ${STREAMS} live streams), ${ROUNDS} rounds, ${s.backend}`,
    );
    line(`baseline: ${N} bare pg-boss job inserts`, bare);
    line('POST → every delivery queued (the answer)', queued);
    line(`POST → last of ${STREAMS} live streams got it`, live);
    line(`POST → last of ${tenth} webhooks received`, hooked);
  } finally {
    await s.close();
    await new Promise<void>((done) => receiver.close(() => done()));
  }
}
