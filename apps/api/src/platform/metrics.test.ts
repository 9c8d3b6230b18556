import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../../test/harness.ts';
import { PAYMENTS_WEBHOOK_PATH } from '../integrations/payments/port.ts';
import { connectDatabase } from '../db/client.ts';
import { queues } from '../jobs/queue.ts';
import { createMetrics } from './metrics.ts';
import { until } from '../../test/http.ts';

// `/metrics` (issue 32): loopback or the bearer token only, one app with a real pg-boss, behind a
// balancer as operations.md says (TRUST_PROXY=1), so a forwarded client is a remote one.

const TOKEN = 'metrics-token-for-tests-0123456789';
const REMOTE = '203.0.113.7';

const t = useTestApp(
  () => startTestApp({ METRICS_TOKEN: TOKEN, TRUST_PROXY: '1' }, { queue: true }),
  120_000,
);

const scrape = (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('who may read /metrics', () => {
  it('refuses a remote client without the token, as if there were no such route', async () => {
    const res = await scrape({}, REMOTE);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No route for GET /metrics.', code: 'not_found' });
    expect(res.body).not.toContain('tradeshelf_');
  });

  it('refuses a wrong token, and a near miss of the right one', async () => {
    for (const token of ['wrong', TOKEN.slice(0, -1), TOKEN + 'x', TOKEN.toUpperCase()]) {
      const res = await scrape({ authorization: `Bearer ${token}` }, REMOTE);
      expect(res.statusCode).toBe(404);
    }
    // A wrong token is refused even from loopback: it was meant for someone else.
    expect((await scrape({ authorization: 'Bearer wrong' })).statusCode).toBe(404);
  });

  it('refuses a client a local proxy forwarded, whatever X-Forwarded-For it first wrote', async () => {
    for (const xff of [REMOTE, `127.0.0.1, ${REMOTE}`]) {
      const res = await scrape({ 'x-forwarded-for': xff });
      expect(res.statusCode).toBe(404);
    }
  });

  it('answers a remote scraper with the token, and loopback without one', async () => {
    const remote = await scrape({ authorization: `Bearer ${TOKEN}` }, REMOTE);
    expect(remote.statusCode).toBe(200);
    expect(remote.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(remote.headers['cache-control']).toBe('no-store');
    const local = await scrape();
    expect(local.statusCode).toBe(200);
    // Process metrics come along (collectDefaultMetrics).
    expect(local.body).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(local.body).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });
});

describe('what /metrics shows', () => {
  it('counts a request under its route pattern and status class, never its raw URL', async () => {
    const series =
      'tradeshelf_http_request_duration_seconds_count{method="GET",route="/api/v1/courses/:id",status_class="4xx"}';
    const before = sample((await scrape()).body, series) ?? 0;
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/courses/crs_no_such_course' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const text = (await scrape()).body;
    expect(sample(text, series)).toBe(before + 1);
    expect(text).not.toContain('crs_no_such_course');
    // A path no route matches is one label, whatever the path.
    await t.app.inject({ method: 'GET', url: '/api/v1/no-such-route-12345' });
    const after = (await scrape()).body;
    expect(
      sample(
        after,
        'tradeshelf_http_request_duration_seconds_count{method="GET",route="(unmatched)",status_class="4xx"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('no-such-route-12345');
  });

  it("shows both pools' size, use and waiting clients", async () => {
    const text = (await scrape()).body;
    // startTestApp's app pool has 4 connections; the queue's has 4 (jobs/queue.ts).
    expect(sample(text, 'tradeshelf_db_pool_connections{pool="app",state="max"}')).toBe(4);
    expect(sample(text, 'tradeshelf_db_pool_connections{pool="jobs",state="max"}')).toBe(4);
    for (const pool of ['app', 'jobs']) {
      expect(
        sample(text, `tradeshelf_db_pool_connections{pool="${pool}",state="idle"}`),
      ).toBeGreaterThanOrEqual(0);
      expect(
        sample(text, `tradeshelf_db_pool_connections{pool="${pool}",state="busy"}`),
      ).toBeGreaterThanOrEqual(0);
      // A live count: pg-boss's own polls may be waiting for its pool at the moment of a scrape.
      const waiting = sample(text, `tradeshelf_db_pool_waiting_clients{pool="${pool}"}`);
      expect(Number.isInteger(waiting) && waiting! >= 0, `${pool}: ${waiting}`).toBe(true);
    }
    // The queue's pool has connected (pg-boss polls through it).
    const jobsOpen =
      sample(text, 'tradeshelf_db_pool_connections{pool="jobs",state="idle"}')! +
      sample(text, 'tradeshelf_db_pool_connections{pool="jobs",state="busy"}')!;
    expect(jobsOpen).toBeGreaterThan(0);
  });

  it('counts a query waiting for a connection while every connection of the pool is taken', async () => {
    // A pool of the test's own: the app's pool also serves its background polls, which queue and
    // drain at any moment, so "the scrape is waiting" could not be told from them (a CI flake).
    const database = connectDatabase(t.deps.config.DATABASE_URL!, 1);
    const metrics = createMetrics({ database, boss: null });
    const held = await database.pool.connect();
    let released = false;
    const release = () => {
      if (!released) held.release();
      released = true;
    };
    const queued = database.pool.query('select 1');
    try {
      // The scrape's own read of the event tables waits too, until the connection is let go.
      const scraping = metrics.text();
      await until('the scrape waiting for the pool', async () => database.pool.waitingCount >= 2);
      release();
      const text = await scraping;
      expect(sample(text, 'tradeshelf_db_pool_waiting_clients{pool="app"}')).toBeGreaterThanOrEqual(
        1,
      );
      expect(sample(text, 'tradeshelf_db_pool_connections{pool="app",state="busy"}')).toBe(1);
      expect(sample(text, 'tradeshelf_metrics_source_up{source="events"}')).toBe(1);
    } finally {
      release();
      await queued;
      await database.close();
    }
  });

  it('shows a queue deeper by a job enqueued, and how long its oldest job waits', async () => {
    const queue = queues.tradingviewMail;
    const depth = `tradeshelf_jobs_waiting{queue="${queue}"}`;
    const before = sample((await scrape()).body, depth) ?? 0;
    // Due in an hour: it waits, whatever the workers do meanwhile.
    await t.deps.boss!.send(queue, { test: true }, { startAfter: 3600 });
    const text = (await scrape()).body;
    expect(sample(text, depth)).toBe(before + 1);
    expect(
      sample(text, `tradeshelf_jobs_oldest_waiting_seconds{queue="${queue}"}`),
    ).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'tradeshelf_jobs_failed{queue="mail.deliver"}')).toBe(0);
    expect(sample(text, 'tradeshelf_metrics_source_up{source="jobs"}')).toBe(1);
    expect(sample(text, 'tradeshelf_metrics_source_up{source="events"}')).toBe(1);
    expect(text).toContain('# TYPE tradeshelf_event_delivery_lag_seconds gauge');
    expect(text).toContain('# TYPE tradeshelf_webhook_lag_seconds histogram');
  });

  it('counts a webhook refused for its signature', async () => {
    const series = 'tradeshelf_webhooks_received_total{kind="unknown",outcome="rejected"}';
    const before = sample((await scrape()).body, series) ?? 0;
    const res = await t.app.inject({
      method: 'POST',
      url: PAYMENTS_WEBHOOK_PATH,
      headers: { 'content-type': 'application/json', 'sandbox-signature': 't=1,v1=forged' },
      payload: JSON.stringify({ id: 'evt_forged', type: 'checkout.completed' }),
    });
    expect(res.statusCode).toBe(400);
    expect(sample((await scrape()).body, series)).toBe(before + 1);
  });
});
