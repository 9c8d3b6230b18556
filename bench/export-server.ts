/**
 * The app as its own process for `export.bench.ts` (its RSS is what the bench samples): starts on a
 * loopback port, seeds two accounts that both buy from and sell as themselves — a large one with
 * `BENCH_EXPORT_ROWS` orders, as many library entries and as many ledger lines of its vendor
 * balance, and a small one with 20 of each — prints one JSON line with the URL, the e-mails and
 * the password, and runs until it is sent SIGTERM.
 */
import { sql } from 'drizzle-orm';
import { newId } from '../apps/api/src/lib.ts';
import { hashPassword } from '../apps/api/src/modules/auth/index.ts';
import { startBenchApp } from './lib.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 50_000);
const PASSWORD = 'bench-export-77';
const CHUNK = 25_000;

const b = await startBenchApp();
const db = b.database.db;
const passwordHash = await hashPassword(PASSWORD);

async function seedAccount(rows: number) {
  const userId = newId('usr');
  const vendorId = newId('ven');
  const productId = newId('prd');
  const priceId = newId('price');
  const email = `${userId}@bench.test`;
  await db.execute(sql`insert into users (id, email, password_hash, roles, email_verified_at)
    values (${userId}, ${email}, ${passwordHash}, array['buyer','vendor']::text[], now())`);
  await db.execute(sql`insert into vendors (id, user_id, vendor_url, display_name)
    values (${vendorId}, ${userId}, ${vendorId}, ${`Bench ${vendorId}`})`);
  await db.execute(sql`insert into products (id, vendor_id, kind, category, slug, title, default_price_id, sort_amount)
    values (${productId}, ${vendorId}, 'indicator', 'indicators', ${productId}, 'Bench indicator', ${priceId}, 2500)`);
  await db.execute(sql`insert into prices (id, product_id, amount, currency, scheme, position)
    values (${priceId}, ${productId}, 2500, 'usd', 'one_time', 0)`);
  for (let start = 0; start < rows; start += CHUNK) {
    const end = Math.min(rows, start + CHUNK) - 1;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into purchases (id, buyer_id, vendor_id, provider, idempotency_key,
          request_hash, status, item_type, product_id, price_id, scheme, currency, subtotal, total,
          expires_at, paid_at, created_at)
        select ${vendorId} || '_' || g, ${userId}, ${vendorId}, 'sandbox', ${vendorId} || '_' || g, 'x',
          'paid', 'product', ${productId}, ${priceId}, 'one_time', 'usd', 2500, 2500, t, t, t
        from generate_series(${start}::int, ${end}::int) g,
          lateral (select now() - g * interval '1 minute' as t) at`);
      await tx.execute(sql`insert into entitlements (id, purchase_id, user_id, product_id, kind, created_at)
        select 'ent_' || p.id, p.id, ${userId}, ${productId}, 'indicator', p.paid_at
        from purchases p where p.vendor_id = ${vendorId} and p.id = any(array(
          select ${vendorId} || '_' || g from generate_series(${start}::int, ${end}::int) g))`);
      await tx.execute(sql`insert into ledger_entries (id, purchase_id, payment_ref, entry_type,
          account_type, account_id, amount, currency, created_at)
        select 'led_' || p.id, p.id, 'pi_' || p.id, 'vendor_share', 'vendor', ${vendorId}, 2250,
          'usd', p.paid_at
        from purchases p where p.vendor_id = ${vendorId} and p.id = any(array(
          select ${vendorId} || '_' || g from generate_series(${start}::int, ${end}::int) g))`);
    });
  }
  return { email, rows };
}

const large = await seedAccount(ROWS);
const small = await seedAccount(20);
// What autovacuum does soon after a bulk insert: without statistics the planner guesses.
await db.execute(sql`analyze purchases, entitlements, ledger_entries`);
console.log(
  JSON.stringify({
    url: b.url,
    pid: process.pid,
    password: PASSWORD,
    large,
    small,
    backend: b.backend,
  }),
);
process.once('SIGTERM', () => {
  void b.close().then(() => process.exit(0));
});
