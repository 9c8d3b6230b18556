import { seedDemoCommunities } from '../modules/access/seed.ts';
import { seedDemoLicences } from '../modules/licences/seed.ts';
import { seedDemoOrders } from '../modules/orders/seed.ts';
import type { Db } from './client.ts';
import { newId } from '../lib.ts';
import { hashPassword } from '../modules/auth/index.ts';
import { createAccount, findAccountByEmail } from '../modules/users/index.ts';
import { attachDemoPictures, seedDemoCatalog } from '../modules/catalog/seed.ts';

export const DEMO_PASSWORD = 'tradeshelf-demo';

export const demoAccounts = [
  { email: 'buyer@demo.tradeshelf.test', username: 'demo_buyer', roles: ['buyer'] },
  { email: 'vendor@demo.tradeshelf.test', username: 'demo_vendor', roles: ['buyer', 'vendor'] },
  {
    email: 'affiliate@demo.tradeshelf.test',
    username: 'demo_affiliate',
    roles: ['buyer', 'affiliate'],
  },
] as const;

/** Idempotent: creates the demo accounts that are missing; returns how many it created. */
export async function seedDemo(db: Db): Promise<number> {
  let created = 0;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const account of demoAccounts) {
    if (await findAccountByEmail(db, account.email)) continue;
    const row = await createAccount(db, {
      id: newId('usr'),
      email: account.email,
      passwordHash,
      username: account.username,
      roles: [...account.roles],
      emailVerifiedAt: new Date(),
    });
    if (row) created++;
  }
  return created;
}

/**
 * Demo accounts, then the demo catalogue (once); the demo vendor runs Alpha Edge Labs. The pictures
 * the rows point at are rendered into storage by `renderDemoPictures`, the apps' build stored by
 * `storeDemoBuild`. With `codeSecret` (the app's `CODE_SECRET`, which seals licence keys) the demo
 * buyer also gets a licence.
 */
export async function seedAll(
  db: Db,
  options: { codeSecret?: string } = {},
): Promise<{ accounts: number; catalog: boolean }> {
  const accounts = await seedDemo(db);
  const catalog = await seedDemoCatalog(db, {
    ownerEmails: { 'alpha-edge': 'vendor@demo.tradeshelf.test' },
    buyerEmail: 'buyer@demo.tradeshelf.test',
  });
  // Every run: also gives a database seeded before pictures existed its pictures (ADR 026).
  await attachDemoPictures(db);
  await seedDemoOrders(db, { affiliateEmail: 'affiliate@demo.tradeshelf.test' });
  await seedDemoCommunities(db);
  if (options.codeSecret)
    await seedDemoLicences(db, {
      buyerEmail: 'buyer@demo.tradeshelf.test',
      codeSecret: options.codeSecret,
    });
  return { accounts, catalog };
}
