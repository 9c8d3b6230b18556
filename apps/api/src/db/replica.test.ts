import {
  catalogRoutes,
  ordersRoutes,
  vendorProductsRoutes as r,
  type VendorProductInput,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, searchWord, signedInVendor } from '../../test/factories/catalog.ts';
import { buyPaidProduct, createBuyer } from '../../test/factories/orders.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/http.ts';
import { ownClustersRun, startOwnCluster, type OwnCluster } from '../../test/pg-cluster.ts';
import { checkCatalogChanges } from '../modules/catalog/catalog-changes.ts';
import { connectDatabase } from './client.ts';
import { runMigrations } from './migrate.ts';

/*
 * Issue 32, ADR 061: with DATABASE_READ_URL, anonymous catalogue reads go to a streaming replica;
 * writes, signed-in reads and what follows a catalogue change stay on the primary. The test starts a
 * primary and a replica of its own (pg_basebackup -R) and pauses the replica's replay, so a read
 * answered by the replica shows the state before the pause and one answered by the primary shows
 * the present: where each read went is seen in what it answers.
 */
const enabled = ownClustersRun('replica.test.ts', 'its own primary and replica');

describe.runIf(enabled)('reads from a streaming replica (ADR 061)', () => {
  let primary: OwnCluster;
  let replica: OwnCluster;
  let onReplica: pg.Client;
  let t: TestApp;

  beforeAll(async () => {
    primary = await startOwnCluster();
    const migrator = connectDatabase(primary.url, 1);
    await runMigrations(migrator.db);
    await migrator.close();
    replica = await startOwnCluster(primary);
    onReplica = new pg.Client({ connectionString: replica.url });
    // Ended by the second test's stop of the replica, after its last use.
    onReplica.on('error', () => undefined);
    await onReplica.connect();
    t = await startTestApp({}, { databaseUrl: primary.url, readUrl: replica.url });
  }, 120_000);

  // A test that failed while replay stood still must not leave the next one waiting for it.
  afterEach(async () => {
    await onReplica?.query('select pg_wal_replay_resume()').catch(() => undefined);
  });

  afterAll(async () => {
    await onReplica?.end().catch(() => undefined);
    await t?.close();
    await replica?.destroy();
    await primary?.destroy();
  });

  const anonymous = (id: string) => t.call(catalogRoutes.productDetails, { query: { id } });
  const signedIn = (id: string, token: string) =>
    t.call(catalogRoutes.productDetails, { query: { id }, token });
  const titleOf = (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(200);
    return (JSON.parse(res.body) as { product: { title: string } }).product.title;
  };
  /**
   * Replay on the replica caught up with everything the primary wrote, and the app's poll saw it.
   * The insert position, not `pg_current_wal_lsn()`: with `synchronous_commit=off` a commit can still
   * sit in the WAL buffers, past the write position, and the replica would look caught up without
   * it (the flake CI met: the poll then read the old catalogue version there and kept reads on the
   * primary).
   */
  const caughtUp = async () => {
    const { rows } = await t.database.db.execute<{ lsn: string }>(
      sql`select pg_current_wal_insert_lsn()::text as lsn`,
    );
    await until('the replica to replay the primary', async () => {
      const res = await onReplica.query<{ done: boolean }>(
        'select pg_last_wal_replay_lsn() >= $1::pg_lsn as done',
        [rows[0]!.lsn],
      );
      return res.rows[0]!.done || false;
    });
    await checkCatalogChanges(t.deps);
  };
  /**
   * Stops replay and waits until it has stopped: `pg_wal_replay_pause()` only asks, and the startup
   * process may still replay what the primary writes next (the flake CI met: the "paused" replica
   * answered with a write made after the call).
   */
  const pauseReplay = async () => {
    await onReplica.query('select pg_wal_replay_pause()');
    await until('replay to pause', async () => {
      const res = await onReplica.query<{ state: string }>(
        'select pg_get_wal_replay_pause_state() as state',
      );
      return res.rows[0]!.state === 'paused';
    });
  };
  const metrics = async () =>
    (await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body;

  const draft = (): VendorProductInput => ({
    kind: 'indicator',
    title: `Replica ${searchWord()} indicator`,
    summary: 'Read from wherever it is fresh.',
    description: 'Signals.',
    tags: ['replica'],
    platforms: ['tradingview'],
    assetClasses: ['stocks'],
    plans: [{ billing: 'one_time', amount: 4900, currency: 'usd' }],
  });

  it('answers anonymous catalogue reads from the replica and a buyer’s own reads from the primary', async () => {
    const vendor = await signedInVendor(t);
    const created = await t.call(r.createVendorProduct, { token: vendor.token, body: draft() });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json().product as {
      id: string;
      title: string;
      plans: Array<{ priceId: string }>;
    };
    const published = await t.call(r.publishVendorProduct, {
      token: vendor.token,
      params: { id: product.id },
    });
    expect(published.statusCode, published.body).toBe(200);
    await caughtUp();
    expect(titleOf(await anonymous(product.id))).toBe(product.title);

    // From here the replica stands still: a write the app does not know of shows only on the primary.
    await pauseReplay();
    await t.database.db.execute(
      sql`update products set title = 'Only on the primary' where id = ${product.id}`,
    );
    const looker = await createBuyer(t);
    expect(titleOf(await anonymous(product.id))).toBe(product.title);
    expect(titleOf(await signedIn(product.id, looker.token))).toBe('Only on the primary');
    const found = await t.call(catalogRoutes.search, {
      query: { q: product.title.split(' ')[1]! },
    });
    expect(found.json().products.map((p: { id: string }) => p.id)).toEqual([product.id]);

    // The replica has WAL waiting: the lag shows on /metrics, with the read pool.
    expect(await metrics()).toMatch(/^tradeshelf_db_replica_lag_bytes [1-9]\d*$/m);
    expect(await metrics()).toMatch(
      /^tradeshelf_db_pool_connections\{pool="read",state="max"\} 4$/m,
    );

    // A purchase paid while the replica stands still: the buyer's purchases list shows it (primary).
    const buyer = await buyPaidProduct(t, vendor.vendorUrl, product.plans[0]!.priceId);
    const onTheReplica = await onReplica.query('select 1 from purchases where id = $1', [
      buyer.purchaseId,
    ]);
    expect(onTheReplica.rowCount).toBe(0);
    const list = await t.call(ordersRoutes.purchaseList, { token: buyer.token });
    expect(list.statusCode, list.body).toBe(200);
    expect(JSON.stringify(list.json())).toContain(buyer.purchaseId);

    // A catalogue change through the app: public reads go to the primary until the replica has it,
    // polls included (the replica still says the product is on sale).
    const unpublished = await t.call(r.unpublishVendorProduct, {
      token: vendor.token,
      params: { id: product.id },
    });
    expect(unpublished.statusCode, unpublished.body).toBe(200);
    expect((await anonymous(product.id)).statusCode).toBe(404);
    await checkCatalogChanges(t.deps);
    expect((await anonymous(product.id)).statusCode).toBe(404);
    const stillOnSale = await onReplica.query<{ is_active: boolean }>(
      'select is_active from products where id = $1',
      [product.id],
    );
    expect(stillOnSale.rows[0]?.is_active).toBe(true);

    // Replay resumes and catches up: public reads are the replica's again.
    await onReplica.query('select pg_wal_replay_resume()');
    await caughtUp();
    // Caught up: 0, unless a background write (autovacuum) landed since; never the paused seconds.
    const lag = /^tradeshelf_db_replica_lag_seconds (\S+)$/m.exec(await metrics());
    expect(Number(lag?.[1])).toBeLessThan(1);
    await pauseReplay();
    const later = await createProduct(t, vendor.id, { title: 'Written while the replica waits' });
    expect((await anonymous(later.id)).statusCode).toBe(404);
    expect(titleOf(await signedIn(later.id, looker.token))).toBe('Written while the replica waits');
    await onReplica.query('select pg_wal_replay_resume()');
  });

  it('reads from the primary while the replica is down', async () => {
    const vendor = await signedInVendor(t);
    const product = await createProduct(t, vendor.id, { title: 'Served without a replica' });
    await caughtUp();
    await replica.stop('fast');
    try {
      expect(titleOf(await anonymous(product.id))).toBe('Served without a replica');
      await checkCatalogChanges(t.deps);
      expect(titleOf(await anonymous(product.id))).toBe('Served without a replica');
      expect(await metrics()).toMatch(/^tradeshelf_metrics_source_up\{source="replica"\} 0$/m);
    } finally {
      await replica.start();
    }
  });
});
