// Demo data: each vendor selling communities owns a sandbox Discord server, and each community
// product is bound to its own role there, so the library works on first start (sandbox only). An
// alert product of such a vendor is bound too: its role reads the feed's Discord channel (ADR 059).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { seedSandboxGuild } from '../../integrations/chat/sandbox.ts';
import { addRoleEntitlements } from './entitlements.ts';

/** Discord caps role names at 100 characters; short names read better on a member list. */
const roleName = (title: string) => (title.length > 40 ? `${title.slice(0, 39)}…` : title);

export async function seedDemoCommunities(db: Db): Promise<number> {
  const products = (
    await db.execute<{
      id: string;
      title: string;
      kind: string;
      vendor_id: string;
      vendor_name: string;
    }>(sql`
      select p.id, p.title, p.kind, p.vendor_id, v.display_name as vendor_name
      from products p join vendors v on v.id = p.vendor_id
      where (p.kind = 'community' or (p.kind = 'alert' and exists (select 1 from products c
          where c.vendor_id = p.vendor_id and c.kind = 'community')))
        and not exists (select 1 from community_bindings b where b.product_id = p.id)
      order by v.display_name, p.kind desc, p.title`)
  ).rows;
  const byVendor = new Map<string, typeof products>();
  for (const p of products) byVendor.set(p.vendor_id, [...(byVendor.get(p.vendor_id) ?? []), p]);
  for (const [vendorId, list] of byVendor) {
    const name = `${list[0]!.vendor_name} Community`;
    const guild = await seedSandboxGuild(db, {
      name,
      roles: [...list.map((p) => roleName(p.title)), 'Moderators'],
      managedRoles: ['Server Booster'],
    });
    await db.execute(sql`insert into vendor_discord_servers (vendor_id, guild_id, name)
      values (${vendorId}, ${guild.guildId}, ${name}) on conflict do nothing`);
    for (const p of list) {
      const role = { id: guild.roleIds[roleName(p.title)]!, name: roleName(p.title) };
      await db.execute(sql`insert into community_bindings (product_id, vendor_id, guild_id, guild_name, roles)
        values (${p.id}, ${vendorId}, ${guild.guildId}, ${name}, ${JSON.stringify([role])}::jsonb)
        on conflict (product_id) do nothing`);
      if (p.kind === 'alert') await addRoleEntitlements(db, p.id);
    }
  }
  return products.length;
}

/**
 * Idempotent: what a paid demo purchase grants (access, and what its kind delivers: the course
 * enrolment or the Discord role), dated then.
 */
export async function seedDemoEntitlements(
  db: Db,
  options: {
    purchaseId: string;
    userId: string;
    productId: string;
    daysAgo: number;
    delivers: 'course_enrolment' | 'discord_role';
  },
): Promise<void> {
  const { purchaseId, userId, productId, daysAgo, delivers } = options;
  await db.execute(sql`insert into entitlements (id, purchase_id, user_id, product_id, kind, created_at)
    values (${'ent_demo_a_' + purchaseId}, ${purchaseId}, ${userId}, ${productId}, 'access',
        now() - make_interval(days => ${daysAgo})),
      (${'ent_demo_d_' + purchaseId}, ${purchaseId}, ${userId}, ${productId}, ${delivers},
        now() - make_interval(days => ${daysAgo}))
    on conflict do nothing`);
  // What the delivery job found when the buyer had not linked Discord yet.
  if (delivers === 'discord_role') {
    const entitlementId = 'ent_demo_d_' + purchaseId;
    await db.execute(sql`insert into access_deliveries (entitlement_id, user_id, state, checked_at)
      values (${entitlementId}, ${userId}, 'needs_link', now() - make_interval(days => ${daysAgo}))
      on conflict do nothing`);
    await db.execute(sql`insert into access_events (id, entitlement_id, type, detail, at)
      values (${'aev_demo_' + purchaseId}, ${entitlementId}, 'needs_buyer',
        'Waiting for the buyer to connect Discord.', now() - make_interval(days => ${daysAgo}))
      on conflict do nothing`);
  }
}
