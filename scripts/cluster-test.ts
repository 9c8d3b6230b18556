/**
 * `npm run test:cluster` (issue 32): the scale-out claim, on the engines production uses. In network
 * namespaces of its own — one "host" each for the PostgreSQL primary, its streaming replica,
 * PgBouncer, Redis, two web nodes, the worker and HAProxy — it drives a bounded mixed load (browsing,
 * search, sign-ups, checkouts paid on the payments sandbox and referred by an affiliate, buyers who
 * connect Discord and buy a community, licence validations, affiliate payouts) through HAProxy,
 * `kill -9`s one web node and the worker mid-load and restarts them, then checks what must hold.
 * Prints its figures.
 *
 * Needs root (namespaces, veth, a bridge), the Debian PostgreSQL, pgbouncer, haproxy and redis-server,
 * and the web build (`npm run build`). Not part of `npm test`. Everything it starts is stopped and
 * every namespace removed on the way out, failure or not.
 *
 *   npm run test:cluster               the test (about a minute)
 *   npm run test:cluster -- --bench    also one node against two behind HAProxy (docs/benchmarks.md)
 *   npm run test:cluster -- --converge waits (up to 3 min) until webhooks cut by the kill are redelivered
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { verify } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { chownSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from '@tradeshelf/contract';
import autocannon from 'autocannon';
import pg from 'pg';
import sharp from 'sharp';
import { INITDB_OPTIONS, postgresAccount, postgresBinDir } from '../apps/api/test/pg-cluster.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = process.argv.includes('--bench');
const CONVERGE = process.argv.includes('--converge');
const started = Date.now();
const since = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
const say = (msg: string) => console.log(`[cluster ${since()}] ${msg}`);

// --- the machines -------------------------------------------------------------------------------
const PREFIX = 'tscl';
const NET = '10.231.7';
const BRIDGE = `${PREFIX}br0`;
const hosts = {
  lb: `${NET}.2`,
  pg1: `${NET}.10`,
  pg2: `${NET}.11`,
  bouncer: `${NET}.12`,
  redis: `${NET}.13`,
  web1: `${NET}.21`,
  web2: `${NET}.22`,
  worker: `${NET}.23`,
} as const;
type Host = keyof typeof hosts;
const ns = (h: Host) => `${PREFIX}-${h}`;
const veth = (h: Host) => `${PREFIX}v-${h}`.slice(0, 15);
const PUBLIC = `http://${hosts.lb}:8080`;
const METRICS_TOKEN = 'cluster-test-metrics-token-0123456789';
const secrets = {
  JWT_SECRET: 'Q3v9mX2pL8rT5wK1nB7cZ4hJ6dF0gY2sClusterJwt',
  CODE_SECRET: 'R8tW3kM6pN1vB9xC4zL7hQ2jF5gD0sA3ClusterCode',
  STORAGE_SECRET: 'Z5nK8wP2rT6vM1bX9cL4hJ7qF3gD0sY8ClusterStore',
};
/** Each node's pools; PgBouncer's pool holds all of them at once (docs/operations.md). */
const APP_POOL = 5;
const JOBS_POOL = 3;
const NODES = 3;

function sh(cmd: string, args: string[], quiet = false): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    if (quiet) return '';
    throw err;
  }
}

const pgBin = postgresBinDir();

function preflight(): void {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('root (network namespaces)');
  if (!pgBin) missing.push('PostgreSQL (/usr/lib/postgresql/*/bin)');
  for (const tool of ['ip', 'pgbouncer', 'haproxy', 'redis-server', 'runuser', 'setpriv'])
    if (!sh('sh', ['-c', `command -v ${tool}`], true)) missing.push(tool);
  if (!existsSync(path.join(root, 'apps/web/build/server')))
    missing.push('the web build (npm run build)');
  if (missing.length) {
    console.error(`test:cluster cannot run here; missing: ${missing.join(', ')}`);
    process.exit(2);
  }
}

/** Removes everything of ours, whatever state a previous run left: processes in our namespaces first. */
function teardownNetwork(): void {
  for (const h of Object.keys(hosts) as Host[]) {
    const pids = sh('ip', ['netns', 'pids', ns(h)], true)
      .split(/\s+/)
      .filter(Boolean);
    for (const pid of pids) sh('kill', ['-9', pid], true);
    sh('ip', ['netns', 'del', ns(h)], true);
    sh('ip', ['link', 'del', veth(h)], true);
  }
  sh('ip', ['link', 'del', BRIDGE], true);
  sh('iptables', ['-D', 'FORWARD', '-i', BRIDGE, '-o', BRIDGE, '-j', 'ACCEPT'], true);
}

function setupNetwork(): void {
  teardownNetwork();
  sh('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
  sh('ip', ['addr', 'add', `${NET}.1/24`, 'dev', BRIDGE]);
  sh('ip', ['link', 'set', BRIDGE, 'up']);
  // Docker's FORWARD policy may be DROP with bridge netfilter on: let the bridge talk to itself.
  sh('iptables', ['-I', 'FORWARD', '-i', BRIDGE, '-o', BRIDGE, '-j', 'ACCEPT'], true);
  for (const [h, address] of Object.entries(hosts) as [Host, string][]) {
    sh('ip', ['netns', 'add', ns(h)]);
    sh('ip', ['link', 'add', veth(h), 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns(h)]);
    sh('ip', ['link', 'set', veth(h), 'master', BRIDGE, 'up']);
    sh('ip', ['-n', ns(h), 'addr', 'add', `${address}/24`, 'dev', 'eth0']);
    sh('ip', ['-n', ns(h), 'link', 'set', 'eth0', 'up']);
    sh('ip', ['-n', ns(h), 'link', 'set', 'lo', 'up']);
  }
}

// --- processes ----------------------------------------------------------------------------------
const work = mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-cluster-'));
const running = new Map<string, ChildProcess>();

function startIn(
  name: string,
  host: Host,
  argv: string[],
  options: { env?: Record<string, string>; as?: string; cwd?: string } = {},
): ChildProcess {
  // setpriv execs (runuser would fork and outlive a kill of its pid).
  const cmd = options.as
    ? ['setpriv', `--reuid=${options.as}`, `--regid=${options.as}`, '--init-groups', ...argv]
    : argv;
  const log = createWriteStream(path.join(work, `${name}.log`), { flags: 'a' });
  // `ip netns exec` enters the namespace and execs the command: the child's pid is the process's.
  const child = spawn('ip', ['netns', 'exec', ns(host), ...cmd], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...options.env },
    cwd: options.cwd ?? work,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  running.set(name, child);
  child.on('exit', () => {
    if (running.get(name) === child) running.delete(name);
  });
  return child;
}

async function stopAll(): Promise<void> {
  for (const child of running.values()) child.kill('SIGKILL');
  const deadline = Date.now() + 5000;
  while (running.size && Date.now() < deadline) await pause(50);
}

async function until<T>(what: string, probe: () => Promise<T | false>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => false as const);
    if (value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await pause(50);
  }
}

const ready = (url: string) =>
  until(
    `${url}/readyz`,
    async () => (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) })).ok || false,
    90_000,
  );

// --- the cluster --------------------------------------------------------------------------------
async function startDatabases(): Promise<void> {
  const { uid, gid } = postgresAccount();
  const dirs = { pg1: path.join(work, 'pg1'), pg2: path.join(work, 'pg2') };
  chownSync(work, uid, gid);
  const asPostgres = (tool: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(pgBin!, tool), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' },
    });
  asPostgres('initdb', ['-D', dirs.pg1, ...INITDB_OPTIONS]);
  // The bridge's hosts connect and replicate without passwords (a test network of its own).
  writeFileSync(
    path.join(dirs.pg1, 'pg_hba.conf'),
    readFileSync(path.join(dirs.pg1, 'pg_hba.conf'), 'utf8') +
      `host all all ${NET}.0/24 trust\nhost replication all ${NET}.0/24 trust\n`,
  );
  const serverArgs = (dir: string, address: string) => [
    path.join(pgBin!, 'postgres'),
    '-D',
    dir,
    '-c',
    `listen_addresses=${address}`,
    '-c',
    'port=5432',
    '-c',
    // Not the data directory: pg_basebackup would copy the primary's socket lock into the replica.
    `unix_socket_directories=${dir}-sock`,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'max_connections=100',
    '-c',
    'shared_buffers=64MB',
  ];
  for (const dir of Object.values(dirs)) {
    mkdirSync(`${dir}-sock`);
    chownSync(`${dir}-sock`, uid, gid);
  }
  startIn('pg1', 'pg1', serverArgs(dirs.pg1, hosts.pg1), { as: 'postgres' });
  const primary = `postgres://postgres@${hosts.pg1}:5432/postgres`;
  await until('the primary', async () => (await query(primary, 'select 1'), true), 30_000);
  asPostgres('pg_basebackup', [
    '-h',
    hosts.pg1,
    '-U',
    'postgres',
    '-D',
    dirs.pg2,
    '-R',
    '--checkpoint=fast',
    '--no-sync',
  ]);
  startIn('pg2', 'pg2', serverArgs(dirs.pg2, hosts.pg2), { as: 'postgres' });
  await until(
    'the replica',
    async () => (await query(`postgres://postgres@${hosts.pg2}:5432/postgres`, 'select 1'), true),
    30_000,
  );
}

async function query<T extends pg.QueryResultRow = Record<string, unknown>>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function startBouncerRedisLb(): void {
  const poolSize = NODES * (APP_POOL + JOBS_POOL) + 2;
  const ini = path.join(work, 'pgbouncer.ini');
  writeFileSync(
    ini,
    `[databases]
tradeshelf = host=${hosts.pg1} port=5432 dbname=postgres user=postgres
tradeshelf_read = host=${hosts.pg2} port=5432 dbname=postgres user=postgres
[pgbouncer]
listen_addr = ${hosts.bouncer}
listen_port = 6432
unix_socket_dir =
auth_type = any
pool_mode = session
; every node's app pool plus its job pool, at once (docs/operations.md)
default_pool_size = ${poolSize}
max_client_conn = 400
ignore_startup_parameters = extra_float_digits,options
`,
  );
  startIn('pgbouncer', 'bouncer', ['pgbouncer', ini], { as: 'postgres' });
  startIn('redis', 'redis', [
    'redis-server',
    '--bind',
    hosts.redis,
    '--port',
    '6379',
    '--save',
    '',
    '--appendonly',
    'no',
    '--protected-mode',
    'no',
  ]);
  const cfg = path.join(work, 'haproxy.cfg');
  writeFileSync(
    cfg,
    `global
  maxconn 2000
defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  option forwardfor
  option redispatch
  retries 3
  retry-on conn-failure empty-response
frontend public
  bind ${hosts.lb}:8080
  default_backend web
backend web
  balance roundrobin
  option httpchk GET /readyz
  default-server inter 500ms fall 2 rise 2
  server web1 ${hosts.web1}:3000 check
  server web2 ${hosts.web2}:3000 check
backend one
  server web1 ${hosts.web1}:3000 check
frontend single
  bind ${hosts.lb}:8081
  default_backend one
`,
  );
  startIn('haproxy', 'lb', ['haproxy', '-f', cfg, '-db']);
}

const bouncer = `postgres://postgres@${hosts.bouncer}:6432`;
const nodeEnv = (seed: boolean): Record<string, string> => ({
  APP_ENV: 'sandbox',
  NODE_ENV: 'production',
  HOST: '0.0.0.0',
  PORT: '3000',
  PUBLIC_URL: PUBLIC,
  TRUST_PROXY: hosts.lb,
  DATABASE_URL: `${bouncer}/tradeshelf`,
  DATABASE_READ_URL: `${bouncer}/tradeshelf_read`,
  DATABASE_POOL_SIZE: String(APP_POOL),
  DATABASE_READ_POOL_SIZE: String(APP_POOL),
  JOBS_POOL_SIZE: String(JOBS_POOL),
  REDIS_URL: `redis://${hosts.redis}:6379`,
  // One directory stands in for the object store (no S3-compatible server on this machine).
  DATA_DIR: path.join(work, 'shared-data'),
  SEED_DEMO: String(seed),
  RUN_WORKER: 'false',
  LOG_FORMAT: 'json',
  LOG_LEVEL: 'warn',
  METRICS_TOKEN,
  SIGNUP_LIMIT_PER_IP_HOUR: '100000',
  SEARCH_LIMIT_PER_IP_MINUTE: '1000000',
  // One client address (the test's) validates one key all through the load.
  LICENCE_KEY_LIMIT_PER_MINUTE: '1000000',
  LICENCE_IP_LIMIT_PER_MINUTE: '1000000',
  // Referred sales are payable at once, so the affiliate has a balance to pay out under load.
  AFFILIATE_HOLD_DAYS: '0',
  AFFILIATE_MIN_PAYOUT: '100',
  SHUTDOWN_GRACE_SECONDS: '2',
  ...secrets,
});

const startWeb = (name: 'web1' | 'web2', seed = false) =>
  startIn(name, name, [process.execPath, '--import', 'tsx', 'apps/api/src/main.ts'], {
    env: nodeEnv(seed),
    cwd: root,
  });
const startWorker = () =>
  startIn('worker', 'worker', [process.execPath, '--import', 'tsx', 'apps/api/src/worker.ts'], {
    env: { ...nodeEnv(false), METRICS_PORT: '9100' },
    cwd: root,
  });
const nodeUrl = (h: 'web1' | 'web2') => `http://${hosts[h]}:3000`;

// --- the load -----------------------------------------------------------------------------------
interface Outcome {
  what: string;
  status: number; // 0: no answer (connection cut)
  ms: number;
  at: number;
}
const outcomes: Outcome[] = [];
const paidSessions: Array<{ sessionId: string; buyerId: string }> = [];
/** A buyer's purchase read right after paying: absent (must never be), or not yet paid. */
const missingOwnPurchase: string[] = [];
const pendingAfterPay: string[] = [];

async function timed(what: string, run: () => Promise<Response>): Promise<Response | null> {
  const t0 = performance.now();
  try {
    const res = await run();
    await res.arrayBuffer().catch(() => undefined);
    outcomes.push({ what, status: res.status, ms: performance.now() - t0, at: Date.now() });
    return res;
  } catch {
    outcomes.push({ what, status: 0, ms: performance.now() - t0, at: Date.now() });
    return null;
  }
}

async function json<T>(what: string, run: () => Promise<Response>): Promise<[number, T | null]> {
  const t0 = performance.now();
  try {
    const res = await run();
    const body = (await res.json().catch(() => null)) as T | null;
    outcomes.push({ what, status: res.status, ms: performance.now() - t0, at: Date.now() });
    return [res.status, body];
  } catch {
    outcomes.push({ what, status: 0, ms: performance.now() - t0, at: Date.now() });
    return [0, null];
  }
}

const post = (url: string, body: unknown, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
/** A checkout opened and paid on the sandbox; answers its session id, or null when a step failed. */
async function checkoutAndPay(
  vendorUrl: string,
  body: { priceId: string; refId?: string },
  token: string,
): Promise<string | null> {
  const [checked, session] = await json<{ sessionId?: string }>('checkout', () =>
    post(`${PUBLIC}/api/v1/user/product?vendorUrl=${encodeURIComponent(vendorUrl)}`, body, token),
  );
  if (checked !== 201 || !session?.sessionId) return null;
  const paid = await timed('pay', () =>
    fetch(`${PUBLIC}/sandbox/checkout/${session.sessionId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC },
      body: '',
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    }),
  );
  return paid?.status === 303 ? session.sessionId : null;
}

const get = (url: string, token?: string, accept = 'application/json') =>
  fetch(url, {
    headers: { accept, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal: AbortSignal.timeout(15_000),
  });

interface Catalogue {
  pages: string[];
  ids: string[];
  words: string[];
  prices: Array<{ priceId: string; vendorUrl: string }>;
}

async function catalogue(): Promise<Catalogue> {
  const rows = await query<{
    id: string;
    slug: string;
    title: string;
    price: string;
    vendor_url: string;
  }>(
    `postgres://postgres@${hosts.pg1}:5432/postgres`,
    `select p.id, p.slug, p.title, pr.id as price, v.vendor_url
       from products p join prices pr on pr.id = p.default_price_id join vendors v on v.id = p.vendor_id
      where p.is_active and pr.scheme = 'one_time'
        and not exists (select 1 from product_prerequisites q where q.product_id = p.id)
      order by p.id limit 40`,
  );
  if (rows.length < 5) throw new Error(`the demo catalogue has ${rows.length} products on sale`);
  return {
    pages: rows.map((r) => `/p/${encodeURIComponent(r.id)}/${encodeURIComponent(r.slug)}`),
    ids: rows.map((r) => r.id),
    words: rows.map((r) => r.title.split(/\s+/)[0]!.toLowerCase()),
    prices: rows.map((r) => ({ priceId: r.price, vendorUrl: r.vendor_url })),
  };
}

async function browse(cat: Catalogue, stop: () => boolean, i: number): Promise<void> {
  for (let n = i; !stop(); n++) {
    const page = cat.pages[n % cat.pages.length]!;
    if (n % 4 === 0)
      await timed('search', () =>
        get(`${PUBLIC}/api/v1/products/term/search?q=${cat.words[n % cat.words.length]}`),
      );
    else if (n % 4 === 1)
      await timed('page', () => get(`${PUBLIC}${page}`, undefined, 'text/html'));
    else if (n % 4 === 2)
      await timed('details', () =>
        get(`${PUBLIC}/api/v1/products/details/search?id=${cat.ids[n % cat.ids.length]}`),
      );
    else
      await timed('search-page', () =>
        get(`${PUBLIC}/search?q=${cat.words[n % cat.words.length]}`, undefined, 'text/html'),
      );
  }
}

let buyerSeq = 0;
async function shop(
  cat: Catalogue,
  refs: Map<string, string>,
  stop: () => boolean,
  i: number,
): Promise<void> {
  for (let n = i; !stop(); n++) {
    const email = `cluster-${process.pid}-${i}-${buyerSeq++}@cluster.test`;
    const [signed, account] = await json<{ token?: string; id?: string }>('signup', () =>
      post(`${PUBLIC}/auth/signup/buyer`, { email, password: 'Cluster-test-password-1' }),
    );
    if (signed !== 201 || !account?.token) continue;
    const token = account.token;
    const price = cat.prices[n % cat.prices.length]!;
    // Referred by the demo affiliate where it has joined the vendor's programme: its commission.
    const refId = refs.get(price.vendorUrl);
    const sessionId = await checkoutAndPay(
      price.vendorUrl,
      { priceId: price.priceId, ...(refId ? { refId } : {}) },
      token,
    );
    if (!sessionId) continue;
    paidSessions.push({ sessionId: sessionId, buyerId: account.id ?? '' });
    // What the buyer reads right after paying comes from the primary: never "not bought".
    const [seen, status] = await json<{ purchase?: { status: string } }>('purchase-status', () =>
      get(`${PUBLIC}/api/v1/purchase/session/${sessionId}`, token),
    );
    if (seen === 404) missingOwnPurchase.push(sessionId);
    // A webhook cut by the kill is applied when the sandbox retries it: paid, a moment later.
    else if (seen === 200 && status?.purchase?.status !== 'paid') pendingAfterPay.push(sessionId);
  }
}

// --- Discord, licences, affiliate payouts -------------------------------------------------------
interface Extras {
  /** Community products bound to a sandbox Discord server, with their default (recurring) price. */
  communities: Array<{ priceId: string; vendorUrl: string }>;
  /** The demo affiliate's referral id per vendor whose programme it is in. */
  refs: Map<string, string>;
  affiliate: { id: string; token: string };
  /** The demo buyer's licence, an activated device, and the vendor's keys that sign answers. */
  licence: { key: string; fingerprint: string; keys: Map<string, string> };
}

const loginAs = async (email: string) => {
  const [status, body] = await json<{ id?: string; token?: string }>('login', () =>
    post(`${PUBLIC}/auth/login`, { email, password: 'tradeshelf-demo' }),
  );
  if (status !== 200 || !body?.token || !body.id) throw new Error(`${email} login: ${status}`);
  return { id: body.id, token: body.token };
};

async function prepareExtras(): Promise<Extras> {
  const communities = (
    await query<{ price: string; vendor_url: string }>(
      `postgres://postgres@${hosts.pg1}:5432/postgres`,
      `select pr.id as price, v.vendor_url
         from products p join prices pr on pr.id = p.default_price_id
         join vendors v on v.id = p.vendor_id join community_bindings b on b.product_id = p.id
        where p.is_active and p.kind = 'community'
          and not exists (select 1 from product_prerequisites q where q.product_id = p.id)
        order by p.id`,
    )
  ).map((r) => ({ priceId: r.price, vendorUrl: r.vendor_url }));
  if (!communities.length) throw new Error('the demo catalogue has no bound community on sale');

  const affiliate = await loginAs('affiliate@demo.tradeshelf.test');
  const refs = new Map<string, string>();
  const vendors = (
    await (await get(`${PUBLIC}/api/v1/user/affiliate/vendors`, affiliate.token)).json()
  ).vendors as Array<{ vendorId: string; vendorUrl: string; refId: string | null; open: boolean }>;
  for (const v of vendors) {
    let refId = v.refId;
    if (!refId && v.open) {
      const joined = await post(
        `${PUBLIC}/api/v1/user/affiliate/generate-ref`,
        { vendorId: v.vendorId },
        affiliate.token,
      );
      refId = joined.ok ? ((await joined.json()) as { data: { refId: string } }).data.refId : null;
    }
    if (refId) refs.set(v.vendorUrl, refId);
  }

  const buyer = await loginAs('buyer@demo.tradeshelf.test');
  const licences = (await (await get(`${PUBLIC}/api/v1/licence`, buyer.token)).json())
    .licences as Array<{
    key: string;
    status: string;
    vendor: { vendorUrl: string };
    activations: Array<{ fingerprint: string }>;
  }>;
  const held = licences.find((l) => l.status === 'active' && l.activations.length);
  if (!held) throw new Error('the demo buyer holds no activated licence');
  const published = (await (
    await get(`${PUBLIC}/api/v1/licence/vendors/${held.vendor.vendorUrl}/public-key`)
  ).json()) as {
    keyId: string;
    publicKeyPem: string;
    retiredKeys: Array<{ keyId: string; publicKeyPem: string }>;
  };
  const keys = new Map([[published.keyId, published.publicKeyPem]]);
  for (const k of published.retiredKeys) keys.set(k.keyId, k.publicKeyPem);
  return {
    communities,
    refs,
    affiliate,
    licence: { key: held.key, fingerprint: held.activations[0]!.fingerprint, keys },
  };
}

/** Buyers who connected Discord, then paid for a community: each must end up holding its role. */
const discordSessions: string[] = [];

async function discordShop(x: Extras, stop: () => boolean, i: number): Promise<void> {
  for (let n = i; !stop(); n++) {
    const email = `cluster-discord-${process.pid}-${i}-${n}@cluster.test`;
    const [signed, account] = await json<{ token?: string }>('signup', () =>
      post(`${PUBLIC}/auth/signup/buyer`, { email, password: 'Cluster-test-password-1' }),
    );
    if (signed !== 201 || !account?.token) continue;
    const token = account.token;
    // Connect Discord as a browser does: the app's authorize link, the sandbox's authorize form
    // (a new Discord user, `guilds.join` granted), back to the app with the code.
    const [asked, authorize] = await json<{ url?: string }>('discord-link', () =>
      get(`${PUBLIC}/api/v1/discord/authorize`, token),
    );
    if (asked !== 200 || !authorize?.url) continue;
    const form = new URLSearchParams(new URL(authorize.url).searchParams);
    form.set('username', `cl${process.pid}_${i}_${n}`);
    form.append('grant', 'guilds.join');
    form.set('decision', 'authorize');
    const consent = await timed('discord-link', () =>
      fetch(`${PUBLIC}/sandbox/discord/oauth2/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC },
        body: form.toString(),
        redirect: 'manual',
        signal: AbortSignal.timeout(15_000),
      }),
    );
    const back = consent?.status === 303 ? consent.headers.get('location') : null;
    if (!back) continue;
    const callback = new URL(back).searchParams;
    const [linked] = await json('discord-link', () =>
      get(
        `${PUBLIC}/api/v1/discord/oauth-response?${new URLSearchParams({
          code: callback.get('code') ?? '',
          state: callback.get('state') ?? '',
        })}`,
        token,
      ),
    );
    if (linked !== 200) continue;
    const community = x.communities[n % x.communities.length]!;
    const sessionId = await checkoutAndPay(
      community.vendorUrl,
      { priceId: community.priceId },
      token,
    );
    if (!sessionId) continue;
    discordSessions.push(sessionId);
    paidSessions.push({ sessionId: sessionId, buyerId: '' });
  }
}

/** Answers to the vendor's app validating the demo buyer's key, checked as the app checks them. */
const validations = { good: 0, bad: [] as string[] };

async function validateLicence(x: Extras, stop: () => boolean): Promise<void> {
  for (let n = 0; !stop(); n++) {
    // An app validates now and then, not in a tight loop: about three a second here.
    if (n) await pause(300);
    const nonce = `cluster-${process.pid}-${n}`;
    const [status, answer] = await json<Record<string, unknown> & { signature?: string }>(
      'licence-validate',
      () =>
        post(`${PUBLIC}/api/v1/licence/validate`, {
          key: x.licence.key,
          fingerprint: x.licence.fingerprint,
          nonce,
        }),
    );
    if (status !== 200 || !answer) continue;
    const { signature = '', ...signed } = answer;
    const pem = x.licence.keys.get(String(answer.keyId));
    const genuine =
      pem !== undefined &&
      verify(null, Buffer.from(canonicalJson(signed)), pem, Buffer.from(signature, 'base64'));
    if (answer.valid === true && answer.nonce === nonce && genuine) validations.good++;
    else
      validations.bad.push(
        `valid ${String(answer.valid)}, nonce ${String(answer.nonce)}, signature ${genuine}`,
      );
  }
}

/** The affiliate asks for its balance twice at once (a double click), again every two seconds. */
const payoutAnswers: number[] = [];

async function requestPayouts(x: Extras, stop: () => boolean): Promise<void> {
  while (!stop()) {
    const answers = await Promise.all(
      [0, 1].map(() =>
        json('payout', () =>
          post(`${PUBLIC}/api/v1/user/affiliate/request-payout`, {}, x.affiliate.token),
        ),
      ),
    );
    for (const [status] of answers) payoutAnswers.push(status);
    await pause(2_000);
  }
}

// --- checks -------------------------------------------------------------------------------------
const failures: string[] = [];
function check(ok: boolean, what: string): void {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

async function metric(url: string, name: string): Promise<number | null> {
  const res = await fetch(`${url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    signal: AbortSignal.timeout(3000),
  });
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : null;
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
}

async function bench(path_: string, port: number, seconds: number) {
  const result = await autocannon({
    url: `http://${hosts.lb}:${port}${path_}`,
    connections: 16,
    duration: seconds,
    headers: { accept: path_.startsWith('/api') ? 'application/json' : 'text/html' },
  });
  return {
    rps: Math.round(result.requests.average),
    p95: result.latency.p97_5 ?? result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

// --- the run ------------------------------------------------------------------------------------
async function main(): Promise<void> {
  preflight();
  setupNetwork();
  say(
    `network: ${Object.keys(hosts).length} namespaces on ${BRIDGE} (${NET}.0/24); logs in ${work}`,
  );
  await startDatabases();
  say('primary and streaming replica up');
  startBouncerRedisLb();
  mkdirSync(path.join(work, 'shared-data'), { recursive: true });
  // The first node migrates and seeds the demo catalogue; the others join the migrated database.
  startWeb('web1', true);
  await ready(nodeUrl('web1'));
  startWeb('web2');
  startWorker();
  await ready(nodeUrl('web2'));
  await ready(PUBLIC);
  say('two web nodes, the worker and HAProxy up');

  const cat = await catalogue();
  const extras = await prepareExtras();
  const primary = `postgres://postgres@${hosts.pg1}:5432/postgres`;
  const [{ t0 }] = (await query<{ t0: Date }>(primary, 'select now() as t0')) as [{ t0: Date }];
  // Transactions the replica served: the anonymous catalogue reads routed there (ADR 061).
  const replicaUrl = `postgres://postgres@${hosts.pg2}:5432/postgres`;
  const replicaXacts = async () =>
    Number(
      (
        await query<{ n: string }>(
          replicaUrl,
          `select xact_commit + xact_rollback as n from pg_stat_database where datname = 'postgres'`,
        )
      )[0]!.n,
    );
  const xactsBefore = await replicaXacts();
  let stopped = false;
  const stop = () => stopped;
  const LOAD_MS = 24_000;
  const loadStart = Date.now();
  const load = Promise.all([
    ...Array.from({ length: 6 }, (_, i) => browse(cat, stop, i)),
    // Three shopping clients as before, one of them a Discord buyer: web2 alone must carry the
    // load while web1 restarts, with HAProxy's 500 ms health checks answered.
    ...Array.from({ length: 2 }, (_, i) => shop(cat, extras.refs, stop, i)),
    discordShop(extras, stop, 2),
    validateLicence(extras, stop),
    requestPayouts(extras, stop),
  ]);

  // Replica lag under the load, read where an operator reads it.
  const lags: number[] = [];
  const lagBytes: number[] = [];
  const sampling = (async () => {
    while (!stopped) {
      const s = await metric(nodeUrl('web2'), 'tradeshelf_db_replica_lag_seconds').catch(
        () => null,
      );
      const b = await metric(nodeUrl('web2'), 'tradeshelf_db_replica_lag_bytes').catch(() => null);
      if (s !== null) lags.push(s);
      if (b !== null) lagBytes.push(b);
      await pause(250);
    }
  })();

  await pause(7_000);
  const killedAt = Date.now();
  running.get('web1')!.kill('SIGKILL');
  running.get('worker')!.kill('SIGKILL');
  say('kill -9: web1 and the worker');
  await pause(3_000);
  const restartedAt = Date.now();
  startWeb('web1');
  startWorker();
  await ready(nodeUrl('web1'));
  const readyAt = Date.now();
  // Back in HAProxy's rotation: it routes to web1 again (rise 2 × 500 ms).
  const backAt = await until(
    'HAProxy to route to web1 again',
    async () => {
      const stats = await fetch(`${nodeUrl('web1')}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      }).then((r) => r.text());
      const served = stats
        .split('\n')
        .filter(
          (l) =>
            l.startsWith('tradeshelf_http_request_duration_seconds_count') &&
            !l.includes('readyz') &&
            !l.includes('metrics'),
        )
        .reduce((n, l) => n + Number(l.split(' ')[1]), 0);
      return served > 0 ? Date.now() : false;
    },
    20_000,
  );
  say(
    `web1 restarted: ready after ${readyAt - restartedAt} ms, serving through HAProxy after ${backAt - restartedAt} ms`,
  );
  await pause(Math.max(0, LOAD_MS - (Date.now() - loadStart)));
  stopped = true;
  await load;
  await sampling;
  const loadEnd = Date.now();
  say(`load done: ${outcomes.length} requests in ${((loadEnd - loadStart) / 1000).toFixed(1)} s`);

  // Every payment applied (webhooks retried across the kill), then the ledger and grants.
  const sessionIds = paidSessions.map((p) => p.sessionId);
  // A webhook cut by the kill is redelivered by the payments sandbox's retry sweep (the worker, every
  // minute; 30 s backoff, or 60 s when the sending node itself died): up to ~2 minutes. The default
  // run waits 20 s and then checks that each one left is still due for redelivery (nothing lost);
  // `--converge` waits for every one to be applied.
  const applied = async () =>
    (
      await query<{ n: number }>(
        primary,
        `select count(*)::int as n from purchases where session_id = any($1) and status = 'paid'`,
        [sessionIds],
      )
    )[0]!.n;
  const convergeStart = Date.now();
  await until(
    'every paid checkout to be a paid purchase',
    async () => (await applied()) === sessionIds.length || false,
    CONVERGE ? 180_000 : 20_000,
  ).catch(() => undefined);
  const paidCount = await applied();
  const convergedMs = paidCount === sessionIds.length ? Date.now() - convergeStart : null;

  // Each Discord purchase: its delivery, whether the buyer's Discord account holds the role in the
  // sandbox server, how many grants were recorded, and whether its work is still queued (an event
  // not yet delivered, a job waiting, or a job the killed worker held: pg-boss hands that one out
  // again when it expires, after 15 minutes, so the wait below does not wait for it).
  const discordRows = () =>
    query<{
      session: string;
      state: string | null;
      held: boolean;
      grants: number;
      queued: boolean;
      killed: boolean;
    }>(
      primary,
      `select p.session_id as session, d.state,
              exists (select 1 from sandbox_discord_member_roles mr
                       where mr.guild_id::text = b.guild_id and mr.user_id::text = l.discord_user_id
                         and mr.role_id::text in (select r->>'id' from jsonb_array_elements(b.roles) r)) as held,
              (select count(*)::int from access_events ev
                where ev.entitlement_id = e.id and ev.type = 'granted') as grants,
              (exists (select 1 from pgboss.job j where j.name = 'access.discord-converge'
                        and j.data->>'userId' = p.buyer_id and j.state in ('created', 'retry', 'active'))
               or exists (select 1 from event_deliveries ed join domain_events de on de.id = ed.event_id
                           where ed.subscriber = 'access.discord' and ed.delivered_at is null
                             and de.stream = p.id)) as queued,
              exists (select 1 from pgboss.job j where j.name = 'access.discord-converge'
                       and j.data->>'userId' = p.buyer_id and j.state = 'active'
                       and j.started_on < $2) as killed
         from purchases p
         join entitlements e on e.purchase_id = p.id and e.kind = 'discord_role'
         join community_bindings b on b.product_id = e.product_id
         left join discord_links l on l.user_id = p.buyer_id
         left join access_deliveries d on d.entitlement_id = e.id
        where p.session_id = any($1) and p.status = 'paid'`,
      [discordSessions, new Date(restartedAt)],
    );
  const inLine = (r: { state: string | null; held: boolean; grants: number }) =>
    r.state === 'active' && r.held && r.grants === 1;
  const discordStart = Date.now();
  await until(
    'every Discord purchase to hold its role',
    async () => (await discordRows()).every((r) => inLine(r) || r.killed) || false,
    CONVERGE ? 180_000 : 15_000,
  ).catch(() => undefined);
  const discord = await discordRows();
  const discordMs = Date.now() - discordStart;

  console.log('\nchecks:');
  check(sessionIds.length >= 5, `checkouts paid under load: ${sessionIds.length} (at least 5)`);
  const [due] = await query<{ waiting: number }>(
    primary,
    `select count(*)::int as waiting from unnest($1::text[]) s(id)
      where not exists (select 1 from purchases p where p.session_id = s.id and p.status = 'paid')
        and exists (select 1 from sandbox_stripe_events e
                     where e.delivered_at is null and position(s.id in e.data::text) > 0)`,
    [sessionIds],
  );
  const unapplied = sessionIds.length - paidCount;
  check(
    due!.waiting === unapplied && (!CONVERGE || unapplied === 0),
    `every paid checkout is a paid purchase or its webhook is due for redelivery (${paidCount} applied, ${due!.waiting} of ${unapplied} others due)`,
  );
  const [twice] = await query<{ n: number }>(
    primary,
    `select count(*)::int as n from (select purchase_id from ledger_entries where entry_type = 'sale'
       group by purchase_id having count(*) > 1) x`,
  );
  check(twice!.n === 0, `no order paid twice (${twice!.n} with more than one sale)`);
  const [grants] = await query<{ wrong: number; total: number }>(
    primary,
    `select count(*) filter (where n <> 1)::int as wrong, count(*)::int as total from (
       select p.id, (select count(*) from ownerships o where o.user_id = p.buyer_id and o.product_id = p.product_id) as n
         from purchases p where p.session_id = any($1) and p.status = 'paid') x`,
    [sessionIds],
  );
  check(
    grants!.wrong === 0 && grants!.total === paidCount,
    `every paid purchase granted once (${grants!.total - grants!.wrong}/${grants!.total})`,
  );
  const [ledger] = await query<{ n: number }>(
    primary,
    `select count(*)::int as n from (select payment_ref from ledger_entries group by payment_ref having sum(amount) <> 0) x`,
  );
  check(ledger!.n === 0, `every ledger set sums to zero (${ledger!.n} do not)`);

  const granted = discord.filter(inLine);
  const waiting = discord.filter((r) => !inLine(r) && r.queued && r.grants <= 1);
  check(
    discordSessions.length >= 3 && granted.length + waiting.length === discord.length,
    `every Discord purchase holds its role, granted once, or its work is still queued (${granted.length} granted of ${discord.length} paid, ${waiting.length} queued, ${discord.filter((r) => r.killed).length} held by the killed worker; ${discordSessions.length} checkouts)`,
  );
  check(
    discord.every((r) => r.grants <= 1),
    `no Discord role granted twice (${discord.filter((r) => r.grants > 1).length} with more than one grant)`,
  );

  check(
    validations.good >= 10 && validations.bad.length === 0,
    `every licence validation answered valid, with the nonce, signed by the vendor's key (${validations.good} good, ${validations.bad.length} not${validations.bad.length ? `: ${validations.bad[0]}` : ''})`,
  );

  // Payouts made under the load: one provider transfer at most each, exactly one for a paid one,
  // and never more paid out than the affiliate earned.
  const [payouts] = await query<{ made: number; doubled: number; paidWrong: number }>(
    primary,
    `select count(*)::int as made,
            count(*) filter (where n > 1)::int as doubled,
            count(*) filter (where status = 'paid' and n <> 1)::int as "paidWrong"
       from (select p.status, (select count(*) from sandbox_stripe_objects o
                                where o.type = 'transfer' and o.data->'metadata'->>'payout_id' = p.id) as n
               from affiliate_payouts p where p.user_id = $1 and p.created_at >= $2) x`,
    [extras.affiliate.id, t0],
  );
  const [balance] = await query<{ negative: number }>(
    primary,
    `select count(*)::int as negative from (select currency from ledger_entries
       where account_type = 'affiliate' and account_id = $1 group by currency having sum(amount) < 0) x`,
    [extras.affiliate.id],
  );
  check(
    payouts!.made >= 2 && payouts!.doubled === 0 && payouts!.paidWrong === 0,
    `affiliate payouts under load: none transferred twice, each paid one transferred once (${payouts!.made} made, ${payouts!.doubled} doubled, ${payouts!.paidWrong} paid without one transfer; ${payoutAnswers.filter((s) => s === 200).length} of ${payoutAnswers.length} requests paid)`,
  );
  check(
    balance!.negative === 0,
    `the affiliate's ledger balance never goes below zero (${balance!.negative} currencies below)`,
  );
  check(
    missingOwnPurchase.length === 0,
    `a buyer never reads their own purchase as missing right after paying (${missingOwnPurchase.length}; ${pendingAfterPay.length} read as pending, webhook cut by the kill)`,
  );

  // A session made on one node works on the other.
  const email = `cluster-session-${process.pid}@cluster.test`;
  const [made, session] = await json<{ token?: string }>('signup', () =>
    post(`${nodeUrl('web1')}/auth/signup/buyer`, { email, password: 'Cluster-test-password-1' }),
  );
  const [onOther] = await json('list', () =>
    get(`${nodeUrl('web2')}/api/v1/purchases/buyer/list`, session?.token),
  );
  check(
    made === 201 && onOther === 200,
    `a session made on web1 works on web2 (${made}, ${onOther})`,
  );

  // Rate limits are shared: 3 reset e-mails per address in 15 minutes, asked of both nodes.
  const forgot = `cluster-limit-${process.pid}@cluster.test`;
  const answers: number[] = [];
  for (const h of ['web1', 'web2', 'web1', 'web2'] as const)
    answers.push(
      (await post(`${nodeUrl(h)}/api/v1/password/send-forgot-password-email`, { email: forgot }))
        .status,
    );
  check(
    answers.join() === '200,200,200,429',
    `rate limits shared across nodes (${answers.join(', ')})`,
  );

  // A vendor edit shows on both nodes' pages within a second.
  const [, login] = await json<{ token?: string }>('login', () =>
    post(`${PUBLIC}/auth/login`, {
      email: 'vendor@demo.tradeshelf.test',
      password: 'tradeshelf-demo',
    }),
  );
  const vendorToken = login?.token;
  const [, list] = await json<{ products: Array<{ id: string; status: string }> }>(
    'vendor-list',
    () => get(`${PUBLIC}/api/v1/vendor/products?status=published`, vendorToken),
  );
  const target = list?.products.find((p) => p.status === 'published');
  let editMs = Number.NaN;
  if (target && vendorToken) {
    const [, editor] = await json<{
      product: Record<string, unknown> & {
        publicPath: string;
        plans: Array<Record<string, unknown>>;
      };
    }>('vendor-product', () => get(`${PUBLIC}/api/v1/vendor/products/${target.id}`, vendorToken));
    const p = editor!.product;
    // Warm both nodes' page caches with the old version first.
    for (const h of ['web1', 'web2'] as const)
      await get(`${nodeUrl(h)}${p.publicPath}`, undefined, 'text/html');
    const marker = `Edited${Date.now()}`;
    const body = {
      kind: p.kind,
      title: p.title,
      summary: p.summary,
      description: `${String(p.description)}\n\n${marker}`,
      tags: p.tags,
      platforms: p.platforms,
      assetClasses: p.assetClasses,
      ...(Array.isArray(p.prerequisiteIds) ? { prerequisiteIds: p.prerequisiteIds } : {}),
      plans: p.plans.map((plan) => ({
        priceId: plan.priceId,
        billing: plan.billing,
        amount: plan.amount,
        currency: plan.currency,
        ...(plan.trialDays ? { trialDays: plan.trialDays } : {}),
      })),
      baseUpdatedAt: p.updatedAt,
    };
    const saved = await fetch(`${PUBLIC}/api/v1/vendor/products/${target.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${vendorToken}` },
      body: JSON.stringify(body),
    });
    const savedAt = Date.now();
    if (!saved.ok)
      console.log(`  vendor edit answered ${saved.status}: ${(await saved.text()).slice(0, 300)}`);
    const shown = await Promise.all(
      (['web1', 'web2'] as const).map((h) =>
        until(
          `the edit on ${h}`,
          async () =>
            (
              await (await get(`${nodeUrl(h)}${p.publicPath}`, undefined, 'text/html')).text()
            ).includes(marker)
              ? Date.now()
              : false,
          5_000,
        ).catch(() => Number.NaN),
      ),
    );
    editMs = Math.max(...shown) - savedAt;
  }
  check(editMs < 1000, `a vendor edit shows on both nodes' pages within a second (${editMs} ms)`);

  // A picture uploaded through one node is served by the other (shared storage and STORAGE_SECRET).
  let pictureOnOther = 0;
  if (target && vendorToken) {
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#224466' },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cluster.png');
    const uploaded = await fetch(`${nodeUrl('web1')}/api/v1/vendor/products/${target.id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${vendorToken}` },
      body: form,
    });
    const images = uploaded.ok
      ? ((await uploaded.json()) as { product: { images: string[] } }).product.images
      : [];
    const url = images.at(-1);
    if (url) {
      const res = await get(`${nodeUrl('web2')}${new URL(url, PUBLIC).pathname}`, undefined, '*/*');
      pictureOnOther = res.status;
      await res.arrayBuffer();
    } else console.log(`  picture upload answered ${uploaded.status}`);
  }
  check(
    pictureOnOther === 200,
    `a picture uploaded through web1 is served by web2 (${pictureOnOther})`,
  );

  // PostgreSQL flushes these counters within a second of a transaction's end.
  await pause(1_200);
  const servedByReplica = (await replicaXacts()) - xactsBefore;
  const anonymousReads = outcomes.filter(
    (o) => ['page', 'details', 'search', 'search-page'].includes(o.what) && o.status === 200,
  ).length;
  check(
    servedByReplica > anonymousReads / 2,
    `anonymous catalogue reads answered by the replica (${servedByReplica} replica transactions for ${anonymousReads} anonymous reads, caches included)`,
  );

  // Figures.
  const during = outcomes.filter((o) => o.at >= killedAt && o.at <= backAt);
  const failed = outcomes.filter((o) => o.status === 0 || o.status >= 500);
  const lost = failed.filter((o) => !(o.at >= killedAt && o.at <= killedAt + 2_000));
  check(lost.length === 0, `no failed request beyond the kill's first 2 s (${lost.length})`);
  const byKind = (w: string) =>
    outcomes.filter((o) => o.what === w && o.status > 0 && o.status < 500);
  console.log('\nfigures:');
  console.log(
    `  load: ${outcomes.length} requests in ${((loadEnd - loadStart) / 1000).toFixed(1)} s through HAProxy, 6 browsing + 3 shopping clients (one a Discord buyer), a licensed app validating, an affiliate asking for payouts`,
  );
  for (const w of [
    'page',
    'details',
    'search',
    'search-page',
    'signup',
    'checkout',
    'pay',
    'discord-link',
    'licence-validate',
    'payout',
  ])
    console.log(
      `  ${w.padEnd(12)} ${String(byKind(w).length).padStart(5)} ok, p95 ${p95(byKind(w).map((o) => o.ms)).toFixed(0)} ms`,
    );
  console.log(
    `  failed answers (5xx or cut): ${failed.length} of ${outcomes.length}, ${during.filter((o) => o.status === 0 || o.status >= 500).length} between the kill and web1 serving again`,
  );
  console.log(
    `  recovery: restarted web1 ready ${readyAt - restartedAt} ms after its start, serving via HAProxy ${backAt - restartedAt} ms after it; killed ${restartedAt - killedAt} ms before the restart`,
  );
  console.log(
    `  replica lag under load (web2 /metrics every 250 ms): max ${Math.max(0, ...lags).toFixed(3)} s, max ${Math.max(0, ...lagBytes)} bytes, ${lags.length} samples`,
  );
  console.log(
    `  Discord: ${discordSessions.length} buyers connected and paid; ${granted.length} held their role ${(discordMs / 1000).toFixed(1)} s after the load (${waiting.length} still queued)`,
  );
  console.log(
    `  paid checkouts: ${sessionIds.length}; ${pendingAfterPay.length} read as pending right after paying (webhook cut by the kill); all applied ${convergedMs === null ? `not within the wait (${unapplied} due for redelivery)` : `${(convergedMs / 1000).toFixed(1)} s after the load`}`,
  );

  if (BENCH) {
    console.log('\nbench (autocannon, 16 connections, 5 s each; same run):');
    const productPage = cat.pages[0]!;
    const searchApi = `/api/v1/products/term/search?q=${cat.words[0]}`;
    for (const [label, p] of [
      ['product page', productPage],
      ['search API', searchApi],
    ] as const) {
      const one = await bench(p, 8081, 5);
      const two = await bench(p, 8080, 5);
      console.log(
        `  ${label.padEnd(13)} one node ${one.rps} req/s p97.5 ${one.p95} ms | two nodes ${two.rps} req/s p97.5 ${two.p95} ms | ratio ${(two.rps / Math.max(1, one.rps)).toFixed(2)} (non-2xx ${one.non2xx}/${two.non2xx})`,
      );
    }
  }
}

let exitCode = 0;
// Interrupted: stop what runs and remove the namespaces before going.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void stopAll().finally(() => {
      teardownNetwork();
      console.log(`interrupted; logs in ${work}`);
      process.exit(130);
    });
  });
try {
  await main();
  if (failures.length) {
    console.log(`\ntest:cluster FAILED: ${failures.length} check(s)`);
    exitCode = 1;
  } else console.log('\ntest:cluster passed');
} catch (err) {
  console.error(`\ntest:cluster FAILED: ${err instanceof Error ? err.stack : String(err)}`);
  exitCode = 1;
} finally {
  await stopAll();
  teardownNetwork();
  if (exitCode === 0 && !process.env.CLUSTER_KEEP_LOGS)
    rmSync(work, { recursive: true, force: true });
  else console.log(`logs kept in ${work}`);
  console.log(`wall time ${since()}`);
}
process.exit(exitCode);
