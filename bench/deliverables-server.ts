/**
 * The app as its own process for `deliverables.bench.ts` (its RSS is what the bench samples): starts
 * on a loopback port with a vendor, an active product and a buyer who paid for it through the
 * sandbox checkout; beside it, on a second port of the same process, a bare static file server
 * (`node:http` + `fs.createReadStream`) that serves a stored deliverable's file from disk by its
 * version id, the baseline for download throughput. Prints one JSON line, runs until SIGTERM.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { LocalDiskStorage } from '../apps/api/src/integrations/storage/local.ts';
import { newId } from '../apps/api/src/lib.ts';
import { freePort, startBenchApp } from './lib.ts';
import { openCheckout, payCheckout } from './sandbox-checkout.ts';

// Its own data directory, removed on exit: a run stores several 200 MB files.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tradeshelf-bench-deliverables-'));
const b = await startBenchApp(null, { env: { DATA_DIR: dataDir } });
const db = b.database.db;
const storage = b.deps.storage;
if (!(storage instanceof LocalDiskStorage)) throw new Error('the bench serves files from disk');

const user = async (roles: Array<'buyer' | 'vendor'>) => {
  const id = newId('usr');
  await db.execute(sql`insert into users (id, email, password_hash, roles, email_verified_at)
    values (${id}, ${`${id}@bench.test`}, 'locked', ${sql.param(roles)}::text[], now())`);
  return {
    id,
    token: await b.deps.tokens.sign({ sub: id, email: `${id}@bench.test`, roles }),
  };
};

const vendorUser = await user(['buyer', 'vendor']);
const vendorId = newId('ven');
const productId = newId('prd');
const priceId = newId('price');
await db.execute(sql`insert into vendors (id, user_id, vendor_url, display_name)
  values (${vendorId}, ${vendorUser.id}, 'bench-deliverables', 'Bench Deliverables')`);
await db.execute(sql`insert into products (id, vendor_id, kind, category, slug, title, summary,
    description, platforms, is_active, default_price_id, sort_amount, published_at)
  values (${productId}, ${vendorId}, 'indicator', 'indicators', 'bench-deliverable',
    'Bench Deliverable', 'A product for the deliverables bench.', '',
    array['mt5','ninjatrader']::text[], true, ${priceId}, 3900, now())`);
await db.execute(sql`insert into prices (id, product_id, amount, currency, scheme, position)
  values (${priceId}, ${productId}, 3900, 'usd', 'one_time', 0)`);

// The buyer pays as a person would: checkout, then the sandbox's hosted page.
const buyer = await user(['buyer']);
await payCheckout(b.url, await openCheckout(b.url, buyer.token, 'bench-deliverables', priceId));

// The bare baseline: the stored file of a version, straight from disk.
const staticServer = http.createServer((req, res) => {
  const versionId = decodeURIComponent((req.url ?? '/').slice(1));
  void (async () => {
    const found = await db.execute<{ storage_key: string; file_name: string }>(
      sql`select storage_key, file_name from deliverable_versions where id = ${versionId}`,
    );
    const row = found.rows[0];
    if (!row) return res.writeHead(404).end();
    const file = storage.resolve(row.storage_key);
    const { size } = await stat(file);
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': size,
      'content-disposition': `attachment; filename="${row.file_name}"`,
    });
    createReadStream(file).pipe(res);
  })().catch(() => res.writeHead(500).end());
});
const staticPort = await freePort();
await new Promise<void>((resolve) => staticServer.listen(staticPort, '127.0.0.1', resolve));

console.log(
  JSON.stringify({
    url: b.url,
    staticUrl: `http://127.0.0.1:${staticPort}`,
    pid: process.pid,
    vendorToken: vendorUser.token,
    buyerToken: buyer.token,
    productId,
  }),
);
process.once('SIGTERM', () => {
  staticServer.close();
  void b
    .close()
    .finally(() => rmSync(dataDir, { recursive: true, force: true }))
    .then(() => process.exit(0));
});
