import { seedDemoCommunities, seedDemoEnrolment } from '../modules/access/seed.ts';
import { seedDemoCourseProgress, seedDemoCourses } from '../modules/courses/seed.ts';
import { seedDemoLicences } from '../modules/licences/seed.ts';
import { seedDemoOrders, seedDemoPurchase } from '../modules/orders/seed.ts';
import type { Db } from './client.ts';
import { newId } from '../lib.ts';
import { hashPassword } from '../modules/auth/index.ts';
import { createAccount, findAccountByEmail } from '../modules/users/index.ts';
import {
  attachDemoPictures,
  demoProductId,
  seedDemoCatalog,
  seedDemoOwnership,
} from '../modules/catalog/seed.ts';

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
  await seedDemoCourses(db);
  await seedDemoCourseEnrolment(db, 'buyer@demo.tradeshelf.test', 'Chart Reading Fundamentals');
  if (options.codeSecret)
    await seedDemoLicences(db, {
      buyerEmail: 'buyer@demo.tradeshelf.test',
      codeSecret: options.codeSecret,
    });
  return { accounts, catalog };
}

/** How long ago the demo buyer bought the demo course: the drip lesson is still locked. */
const DEMO_ENROLLED_DAYS_AGO = 3;

/**
 * The demo buyer bought one course: a paid purchase (orders), the enrolment it grants (access), the
 * ownership (catalog) and some progress (courses), so the course page shows everything on first start.
 */
async function seedDemoCourseEnrolment(db: Db, email: string, title: string): Promise<void> {
  const buyer = await findAccountByEmail(db, email);
  const productId = await demoProductId(db, title);
  if (!buyer || !productId) return;
  const daysAgo = DEMO_ENROLLED_DAYS_AGO;
  const purchaseId = await seedDemoPurchase(db, { buyerId: buyer.id, productId, daysAgo });
  if (!purchaseId) return;
  await seedDemoEnrolment(db, { purchaseId, userId: buyer.id, productId, daysAgo });
  await seedDemoOwnership(db, buyer.id, productId);
  await seedDemoCourseProgress(db, buyer.id, productId);
}
