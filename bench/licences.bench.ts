/**
 * Licence validation (`POST /api/v1/licence/validate`, ADR 032) against a bare Fastify handler doing
 * the same work: the key's hash looked up by the same unique index (licence and this device's
 * activation, as a prepared statement), an answer built and signed with Ed25519 over its canonical
 * JSON. Same process, same database, alternating rounds.
 *
 * - Throughput: closed loop (autocannon, 16 connections); the ratio is app / bare (target ≥ 0.7).
 * - Latency: open loop at a fixed 500 requests/s (a scheduler sends each request at its planned
 *   time whether or not earlier ones answered; latency counts from the planned time, so a stall
 *   is not hidden); p95 target ≤ 10 ms.
 * - Enumeration: sequential medians of a known key, the same key with one character changed and a
 *   key never issued (the last two must cost alike).
 *
 * The rate limiter stays on: 2 000 licences spread the calls so no key nears its 60 a minute, and
 * `LICENCE_IP_LIMIT_PER_MINUTE` is raised because every request comes from 127.0.0.1.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import {
  canonicalJson,
  LICENCE_OFFLINE_GRACE_HOURS,
  licencesRoutes,
  normaliseLicenceKey,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import pg from 'pg';
import { newId } from '../apps/api/src/lib.ts';
import { licenceSealer, newKey } from '../apps/api/src/modules/licences/keys.ts';
import { measureSideBySide, percentile, startBenchApp } from './lib.ts';

const LICENCES = Number(process.env.BENCH_LICENCES ?? 2_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

interface Seeded {
  key: string;
  fingerprint: string;
}

/** A vendor, an app and `n` licences, each active on one MetaTrader account. */
export async function seed(b: Awaited<ReturnType<typeof startBenchApp>>): Promise<Seeded[]> {
  const db = b.database.db;
  const userId = newId('usr');
  const vendorId = newId('ven');
  const productId = newId('prd');
  await db.execute(sql`insert into users (id, email, password_hash, username, roles)
    values (${userId}, ${`bench-${Date.now()}@example.com`}, 'x', null, array['buyer','vendor'])`);
  await db.execute(sql`insert into vendors (id, user_id, vendor_url, display_name)
    values (${vendorId}, ${userId}, 'bench-licences', 'Bench Licences')`);
  await db.execute(sql`insert into products (id, vendor_id, kind, category, slug, title)
    values (${productId}, ${vendorId}, 'app', 'apps', 'bench-app', 'Bench App')`);
  const sealer = licenceSealer(b.deps);
  const out: Seeded[] = [];
  for (let start = 0; start < LICENCES; start += 500) {
    const batch = Array.from({ length: Math.min(500, LICENCES - start) }, (_, i) => ({
      id: newId('lic'),
      key: newKey(sealer),
      fingerprint: String(80_000_000 + start + i),
    }));
    await db.execute(sql`insert into licences (id, user_id, product_id, vendor_id, key_hash, key_sealed,
        max_activations, binding)
      values ${sql.join(
        batch.map(
          (l) =>
            sql`(${l.id}, ${userId}, ${productId}, ${vendorId}, ${l.key.hash}, ${l.key.sealed}, 3, 'metatrader_account')`,
        ),
        sql`, `,
      )}`);
    await db.execute(sql`insert into licence_activations (id, licence_id, binding, fingerprint, name)
      values ${sql.join(
        batch.map(
          (l) =>
            sql`(${newId('act')}, ${l.id}, 'metatrader_account', ${l.fingerprint}, 'Bench account')`,
        ),
        sql`, `,
      )}`);
    out.push(...batch.map((l) => ({ key: l.key.formatted, fingerprint: l.fingerprint })));
  }
  await db.execute(sql`analyze licences`);
  await db.execute(sql`analyze licence_activations`);
  return out;
}

/** The same work without the app: parse, hash, one indexed lookup, build, sign, answer. */
export async function bareServer(dbUrl: string) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 4 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const bare = Fastify();
  bare.post('/validate', async (req, reply) => {
    const body = req.body as { key: string; fingerprint: string };
    const canonical = normaliseLicenceKey(body.key);
    if (!canonical) return reply.status(400).send({ error: 'bad key', code: 'validation_failed' });
    const hash = createHash('sha256').update(canonical).digest('hex');
    const { rows } = await pool.query<{
      id: string;
      product_id: string;
      status: string;
      expires_at: string | null;
      binding: string | null;
    }>({
      name: 'bare_validate',
      text: `select l.id, l.product_id, l.status, l.expires_at, a.binding from licences l
        left join licence_activations a on a.licence_id = l.id and a.fingerprint = $2
        where l.key_hash = $1`,
      values: [hash, body.fingerprint],
    });
    const row = rows[0];
    if (!row) return reply.status(404).send({ error: 'not valid', code: 'licence_invalid' });
    const now = Date.now();
    const answer = {
      valid: row.status === 'active' && row.binding !== null,
      status: row.status,
      expiresAt: row.expires_at,
      licenceId: row.id,
      product: { id: row.product_id, slug: 'bench-app', title: 'Bench App' },
      vendor: { vendorUrl: 'bench-licences' },
      device: {
        fingerprint: body.fingerprint,
        activated: row.binding !== null,
        binding: row.binding,
      },
      nonce: null,
      issuedAt: new Date(now).toISOString(),
      validUntil: new Date(now + LICENCE_OFFLINE_GRACE_HOURS * 3_600_000).toISOString(),
      algorithm: 'Ed25519',
      keyId: 'bare',
    };
    const signature = sign(null, Buffer.from(canonicalJson(answer)), privateKey).toString('base64');
    return { ...answer, signature };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`,
    async close() {
      await bare.close();
      await pool.end();
    },
  };
}

const bodies = (licences: Seeded[]) =>
  licences.map((l) => JSON.stringify({ key: l.key, fingerprint: l.fingerprint }));

/**
 * Open loop, from a worker thread (its own event loop, so the server's work in this one cannot
 * hold sends back): request i is sent at start + i/rate whatever happened to earlier ones, and its
 * latency counts from that planned time, so a stall is not hidden (no coordinated omission).
 */
const OPEN_LOOP_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, payloads, rate, seconds } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const target = new URL(url);
const total = Math.round(rate * seconds);
const latencies = [];
let failed = 0, late = 0, sent = 0, done = 0;
const start = performance.now() + 100;
const finish = () => {
  if (++done < total) return;
  agent.destroy();
  parentPort.postMessage({ latencies, failed, late });
};
const tick = () => {
  const now = performance.now();
  while (sent < total && start + (sent * 1000) / rate <= now) {
    const planned = start + (sent * 1000) / rate;
    if (now - planned > 2) late++;
    const payload = payloads[sent % payloads.length];
    sent++;
    const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname,
      method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) failed++;
          latencies.push(performance.now() - planned);
          finish();
        });
      });
    req.on('error', () => { failed++; finish(); });
    req.end(payload);
  }
  if (sent < total) setTimeout(tick, 1);
};
setTimeout(tick, 100);
`;

interface OpenLoopRun {
  latencies: number[];
  failed: number;
  /** Requests the client itself sent more than 2 ms after their planned time. */
  late: number;
}

function openLoop(url: string, payloads: string[], rate: number, seconds: number) {
  return new Promise<OpenLoopRun>((resolve, reject) => {
    const worker = new Worker(OPEN_LOOP_WORKER, {
      eval: true,
      workerData: { url, payloads, rate, seconds },
    });
    worker.once('message', (result: OpenLoopRun) => {
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', reject);
  });
}

/** Sequential requests, one at a time: the median answer time of each kind, interleaved. */
async function medians(url: string, kinds: Record<string, () => string>, n: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  const times: Record<string, number[]> = Object.fromEntries(
    Object.keys(kinds).map((k) => [k, []]),
  );
  const once = (payload: string) =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(performance.now() - t0));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  for (let i = 0; i < n; i++)
    for (const [name, payload] of Object.entries(kinds)) times[name]!.push(await once(payload()));
  agent.destroy();
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, percentile(v, 50)]));
}

export async function run(): Promise<void> {
  const b = await startBenchApp(null, { env: { LICENCE_IP_LIMIT_PER_MINUTE: '1000000' } });
  let bare: Awaited<ReturnType<typeof bareServer>> | null = null;
  try {
    const started = Date.now();
    const licences = await seed(b);
    const seedSeconds = (Date.now() - started) / 1000;
    bare = await bareServer(b.dbUrl);
    const appUrl = `${b.url}${licencesRoutes.validateLicence.path}`;
    const bareUrl = `${bare.url}/validate`;
    const payloads = bodies(licences);
    // Every request carries the next licence of one shared turn (autocannon's connections would
    // each start its list from the top): each key gets an even share, well under its limit.
    const headers = { 'content-type': 'application/json' };
    let turn = 0;
    const requests = [
      {
        method: 'POST' as const,
        headers,
        setupRequest: (req: object) => ({ ...req, body: payloads[turn++ % payloads.length] }),
      },
    ];
    const check = await fetch(appUrl, {
      method: 'POST',
      headers,
      body: payloads[0],
    });
    if (check.status !== 200)
      throw new Error(`validate answered ${check.status}: ${await check.text()}`);
    if (!((await check.json()) as { valid: boolean }).valid)
      throw new Error('seeded licence not valid');

    // Closed loop, alternating rounds (measureSideBySide warms both first).
    const [bareClosed, appClosed] = await measureSideBySide(
      [
        { title: 'bare Fastify + pg + Ed25519', url: bareUrl },
        { title: 'POST /api/v1/licence/validate', url: appUrl },
      ].map((x) => ({ ...x, options: { requests } })),
      ROUNDS,
    );

    // Open loop at a fixed rate, alternating; percentiles over both runs of each.
    const open = { app: [] as OpenLoopRun[], bare: [] as OpenLoopRun[] };
    const per = Math.max(2, Math.round(OPEN_SECONDS / 2));
    for (let i = 0; i < 2; i++) {
      open.bare.push(await openLoop(bareUrl, payloads, RATE, per));
      open.app.push(await openLoop(appUrl, payloads, RATE, per));
    }
    const pooled = (runs: OpenLoopRun[]) => {
      const all = runs.flatMap((r) => r.latencies);
      return {
        p50: percentile(all, 50),
        p95: percentile(all, 95),
        p99: percentile(all, 99),
        max: Math.max(...all),
        failed: runs.reduce((n, r) => n + r.failed, 0),
        late: runs.reduce((n, r) => n + r.late, 0),
        count: all.length,
      };
    };
    const openApp = pooled(open.app);
    const openBare = pooled(open.bare);

    // Enumeration: a known key, the same with one character changed (a typo) and a key never
    // issued; each call takes the next licence, so no key meets its own rate limit.
    let n = 0;
    const next = () => licences[n++ % licences.length]!;
    const typoOf = (key: string) => `${key.slice(0, -1)}${key.at(-1) === 'Z' ? 'Y' : 'Z'}`;
    const sealer = licenceSealer(b.deps);
    const timing = await medians(
      appUrl,
      {
        known: () => {
          const l = next();
          return JSON.stringify({ key: l.key, fingerprint: l.fingerprint });
        },
        typo: () => {
          const l = next();
          return JSON.stringify({ key: typoOf(l.key), fingerprint: l.fingerprint });
        },
        unknown: () =>
          JSON.stringify({ key: newKey(sealer).formatted, fingerprint: next().fingerprint }),
      },
      Number(process.env.BENCH_TIMING_SAMPLES ?? 300),
    );

    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    const load = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    console.log(
      `\nlicences: validate (${b.backend}, ${os.cpus().length} cores ${cpu}, Node ${process.version}, load ${load}; ${LICENCES} licences seeded in ${seedSeconds.toFixed(1)} s)`,
    );
    const ratio = appClosed!.rps / bareClosed!.rps;
    console.log(
      `  closed loop, 16 connections, ${ROUNDS} rounds: app ${appClosed!.rps.toFixed(0)} req/s (p99 ${appClosed!.p99} ms), bare ${bareClosed!.rps.toFixed(0)} req/s (p99 ${bareClosed!.p99} ms): ratio ${ratio.toFixed(2)} (target >= 0.7: ${ratio >= 0.7 ? 'met' : 'NOT met'})`,
    );
    const line = (name: string, o: typeof openApp) =>
      `  open loop ${RATE}/s, ${per} s x2, ${name.padEnd(4)}: p50 ${o.p50.toFixed(2)} ms, p95 ${o.p95.toFixed(2)} ms, p99 ${o.p99.toFixed(2)} ms, max ${o.max.toFixed(0)} ms over ${o.count} requests, ${o.failed} failed, ${o.late} sent >2 ms late`;
    console.log(line('app', openApp));
    console.log(line('bare', openBare));
    console.log(
      `  p95 target <= 10 ms: ${openApp.p95 <= 10 && openApp.failed === 0 ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  enumeration (sequential medians): known key ${timing.known!.toFixed(2)} ms, one character off ${timing.typo!.toFixed(2)} ms, never issued ${timing.unknown!.toFixed(2)} ms (off / never ${(timing.typo! / timing.unknown!).toFixed(2)}x)`,
    );
  } finally {
    await bare?.close();
    await b.close();
  }
}
