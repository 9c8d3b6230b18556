// Demo data: each vendor selling communities owns a sandbox Discord server, and each community
// product is bound to its own role there, so the library works on first start (sandbox only).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { seedSandboxGuild } from '../../integrations/chat/sandbox.ts';

/** Discord caps role names at 100 characters; short names read better on a member list. */
const roleName = (title: string) => (title.length > 40 ? `${title.slice(0, 39)}…` : title);

export async function seedDemoCommunities(db: Db): Promise<number> {
  const products = (
    await db.execute<{ id: string; title: string; vendor_id: string; vendor_name: string }>(sql`
      select p.id, p.title, p.vendor_id, v.display_name as vendor_name
      from products p join vendors v on v.id = p.vendor_id
      where p.kind = 'community'
        and not exists (select 1 from community_bindings b where b.product_id = p.id)
      order by v.display_name, p.title`)
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
    }
  }
  return products.length;
}

/** Idempotent: what a paid demo purchase of a course grants (access and the enrolment), dated then. */
export async function seedDemoEnrolment(
  db: Db,
  options: { purchaseId: string; userId: string; productId: string; daysAgo: number },
): Promise<void> {
  const { purchaseId, userId, productId, daysAgo } = options;
  await db.execute(sql`insert into entitlements (id, purchase_id, user_id, product_id, kind, created_at)
    values (${'ent_demo_a_' + purchaseId}, ${purchaseId}, ${userId}, ${productId}, 'access',
        now() - make_interval(days => ${daysAgo})),
      (${'ent_demo_c_' + purchaseId}, ${purchaseId}, ${userId}, ${productId}, 'course_enrolment',
        now() - make_interval(days => ${daysAgo}))
    on conflict do nothing`);
}
