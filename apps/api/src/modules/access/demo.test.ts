import { discordRoutes } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { useDemoApp } from '../../../test/demo.ts';
import { findAccountByEmail } from '../users/index.ts';
import { userToken } from '../../../test/factories/users.ts';

// The demo data on first start: the demo buyer's library shows a paid community waiting for Discord.

const t = useDemoApp();

it('gives the demo buyer one community, bound to a sandbox server, asking to connect Discord', async () => {
  const buyer = (await findAccountByEmail(t.database.db, 'buyer@demo.tradeshelf.test'))!;
  const token = await userToken(t, buyer);
  const res = await t.call(discordRoutes.userCommunities, { token });
  expect(res.statusCode, res.body).toBe(200);
  const communities = res.json().communities;
  expect(communities).toHaveLength(1);
  expect(communities[0]).toMatchObject({
    product: { title: 'Alpha Edge Traders Discord' },
    server: { name: 'Alpha Edge Labs Community' },
    health: { status: 'needs_link' },
  });
  expect(communities[0].roles.map((r: { name: string }) => r.name)).toEqual([
    'Alpha Edge Traders Discord',
  ]);
});

it('gives each demo vendor a server of its own, and binds products only into their vendor’s server', async () => {
  const shared = await t.database.db.execute(sql`select guild_id from vendor_discord_servers
    group by guild_id having count(*) > 1`);
  expect(shared.rows).toEqual([]);
  const stray = await t.database.db.execute(sql`select b.product_id from community_bindings b
    where not exists (select 1 from vendor_discord_servers s
      where s.vendor_id = b.vendor_id and s.guild_id = b.guild_id)`);
  expect(stray.rows).toEqual([]);
  const servers = await t.database.db.execute(sql`select 1 from vendor_discord_servers`);
  expect(servers.rows.length).toBeGreaterThan(1);
});
