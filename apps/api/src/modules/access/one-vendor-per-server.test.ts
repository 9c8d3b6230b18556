import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { createUser } from '../../../test/factories/users.ts';
import { useTestApp } from '../../../test/harness.ts';
import { isUniqueViolation } from '../../db/errors.ts';

// Migration 0036 (issue 26, ADR 047) on data the old install could leave: a server claimed by two
// vendors (one by a typed id), and a binding into a server its vendor does not hold.

const MIGRATION = new URL(
  '../../db/migrations/0036_discord_server_one_vendor.sql',
  import.meta.url,
);

const t = useTestApp();

async function vendorWithCommunity(name: string) {
  const user = await createUser(t, { roles: ['buyer', 'vendor'] });
  const vendor = await createVendor(t, { userId: user.id, displayName: name });
  const product = await createProduct(t, vendor.id, { kind: 'community', title: `${name} VIP` });
  return { vendorId: vendor.id, productId: product.id };
}

it('drops servers held by several vendors and bindings outside their vendor’s servers, then keeps one vendor per server', async () => {
  const db = t.database.db;
  const owner = await vendorWithCommunity('Compass Owner');
  const claimer = await vendorWithCommunity('Alpha Claimer');
  const alone = await vendorWithCommunity('Alone Vendor');
  const stray = await vendorWithCommunity('Stray Vendor');
  // The state before the migration: no unique index yet.
  await db.execute(sql`drop index vendor_discord_servers_guild_key`);
  const hold = (vendorId: string, guildId: string) =>
    db.execute(sql`insert into vendor_discord_servers (vendor_id, guild_id, name)
      values (${vendorId}, ${guildId}, 'Server')`);
  const bind = (v: { vendorId: string; productId: string }, guildId: string) =>
    db.execute(sql`insert into community_bindings (product_id, vendor_id, guild_id, guild_name, roles)
      values (${v.productId}, ${v.vendorId}, ${guildId}, 'Server', '[{"id":"5","name":"Moderators"}]'::jsonb)`);
  await hold(owner.vendorId, '9100000000000000001');
  await hold(claimer.vendorId, '9100000000000000001');
  await bind(owner, '9100000000000000001');
  await bind(claimer, '9100000000000000001');
  await hold(alone.vendorId, '9100000000000000002');
  await bind(alone, '9100000000000000002');
  await bind(stray, '9100000000000000002');

  for (const statement of readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint'))
    await db.execute(sql.raw(statement));

  const servers = await db.execute<{ vendor_id: string; guild_id: string }>(sql`select vendor_id,
    guild_id from vendor_discord_servers where guild_id like '91000000000000000%' order by guild_id`);
  expect(servers.rows).toEqual([{ vendor_id: alone.vendorId, guild_id: '9100000000000000002' }]);
  const bindings = await db.execute<{ product_id: string }>(sql`select product_id
    from community_bindings where guild_id like '91000000000000000%'`);
  expect(bindings.rows).toEqual([{ product_id: alone.productId }]);
  const again = await hold(owner.vendorId, '9100000000000000002').catch((err: unknown) => err);
  expect(isUniqueViolation(again)).toBe(true);
});
