import { seedDemoCommunities, seedDemoEntitlements } from '../modules/access/seed.ts';
import { seedDemoCourseProgress, seedDemoCourses } from '../modules/courses/seed.ts';
import { seedDemoLicences } from '../modules/licences/seed.ts';
import { demoDeliveries, seedDemoDeliveries } from '../modules/deliverables/seed.ts';
import { seedDemoAffiliate, seedDemoProgrammes } from '../modules/affiliates/seed.ts';
import {
  DEMO_FEE,
  DEMO_REF_ID,
  seedDemoOrders,
  seedDemoPurchase,
  seedDemoReferredSales,
} from '../modules/orders/seed.ts';
import { seedDemoTradingView } from '../modules/tradingview/seed.ts';
import { seedDemoReviews } from '../modules/reviews/seed.ts';
import { DEMO_ALERT_PRODUCT, seedDemoAlerts } from '../modules/alerts/seed.ts';
import type { Db } from './client.ts';
import { underStartLock } from './migrate.ts';
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
  let hash: Promise<string> | null = null;
  const passwordHashOf = () => (hash ??= hashPassword(DEMO_PASSWORD));
  const catalog = await seedDemoCatalog(db, {
    ownerEmails: { 'alpha-edge': 'vendor@demo.tradeshelf.test' },
    buyerEmail: 'buyer@demo.tradeshelf.test',
  });
  // Every run: also gives a database seeded before pictures existed its pictures (ADR 026).
  await attachDemoPictures(db);
  await seedDemoOrders(db, { affiliateEmail: 'affiliate@demo.tradeshelf.test' });
  await seedDemoAffiliateWalk(db, passwordHashOf);
  await seedDemoCommunities(db);
  await seedDemoTradingView(db);
  await seedDemoCourses(db);
  await seedDemoBought(db, 'buyer@demo.tradeshelf.test', {
    title: 'Chart Reading Fundamentals',
    delivers: 'course_enrolment',
  });
  // A community too, so the library shows "Connect Discord" on first start (the sandbox's server).
  await seedDemoBought(db, 'buyer@demo.tradeshelf.test', {
    title: 'Alpha Edge Traders Discord',
    delivers: 'discord_role',
  });
  // Reviews from demo reviewers (never the demo buyer): they set the products' ratings (ADR 036).
  await seedDemoReviews(db, {
    productId: (title) => demoProductId(db, title),
    own: (userId, productId) => seedDemoOwnership(db, userId, productId),
  });
  // Files, versions and guides (issue 29) before the licences: an app with a demo delivery keeps it.
  await seedDemoDeliveries(db, demoDeliveries, (title) => demoProductId(db, title));
  // The alert product's feed with past alerts (ADR 059).
  await seedDemoAlerts(db, await demoProductId(db, DEMO_ALERT_PRODUCT));
  if (options.codeSecret)
    await seedDemoLicences(db, {
      buyerEmail: 'buyer@demo.tradeshelf.test',
      codeSecret: options.codeSecret,
    });
  return { accounts, catalog };
}

/** The demo affiliate's referred sales go back this far (a sale every five days). */
const DEMO_REFERRAL_DAYS = 180;

/**
 * The demo affiliate's months of referred Alpha Edge Labs sales (orders' ledger, bought by five demo
 * traders who never sign in), two of them refunded; the programmes, clicks, a completed sandbox
 * payout account, an invitation and past payouts (affiliates). Some commission is still on hold and
 * more than the minimum is available, so the dashboard, its chart and a payout work at first start.
 */
async function seedDemoAffiliateWalk(db: Db, passwordHash: () => Promise<string>): Promise<void> {
  await seedDemoProgrammes(db);
  const affiliate = await findAccountByEmail(db, 'affiliate@demo.tradeshelf.test');
  if (!affiliate) return;
  const buyerIds: string[] = [];
  for (let n = 1; n <= 5; n++) {
    const email = `trader${n}@demo.tradeshelf.test`;
    const found =
      (await findAccountByEmail(db, email)) ??
      (await createAccount(db, {
        id: newId('usr'),
        email,
        passwordHash: await passwordHash(),
        username: `demo_trader_${n}`,
        roles: ['buyer'],
        emailVerifiedAt: new Date(),
      }));
    if (found) buyerIds.push(found.id);
  }
  const sales = Array.from({ length: DEMO_REFERRAL_DAYS / 5 }, (_, i) => ({
    daysAgo: 2 + i * 5,
    refunded: i === 3 || i === 11,
  }));
  await seedDemoReferredSales(db, {
    vendorUrl: 'alpha-edge',
    refId: DEMO_REF_ID,
    affiliateUserId: affiliate.id,
    commissionBps: 2000,
    buyerIds,
    fee: DEMO_FEE,
    sales,
  });
  await seedDemoAffiliate(db, {
    userId: affiliate.id,
    email: affiliate.email,
    refId: DEMO_REF_ID,
    days: DEMO_REFERRAL_DAYS,
  });
}

/** How long ago the demo buyer bought: the demo course's drip lesson is still locked. */
const DEMO_BOUGHT_DAYS_AGO = 3;

/**
 * The demo buyer bought a product: a paid purchase (orders), what it grants (access), the ownership
 * (catalog) and, for the course, some progress (courses), so its page shows everything on first start.
 */
async function seedDemoBought(
  db: Db,
  email: string,
  what: { title: string; delivers: 'course_enrolment' | 'discord_role' },
): Promise<void> {
  const buyer = await findAccountByEmail(db, email);
  const productId = await demoProductId(db, what.title);
  if (!buyer || !productId) return;
  const daysAgo = DEMO_BOUGHT_DAYS_AGO;
  const purchaseId = await seedDemoPurchase(db, { buyerId: buyer.id, productId, daysAgo });
  if (!purchaseId) return;
  await seedDemoEntitlements(db, {
    purchaseId,
    userId: buyer.id,
    productId,
    daysAgo,
    delivers: what.delivers,
  });
  await seedDemoOwnership(db, buyer.id, productId);
  if (what.delivers === 'course_enrolment') await seedDemoCourseProgress(db, buyer.id, productId);
}

/**
 * `seedAll` as a node runs it on start (SEED_DEMO): nodes started together take turns, so a second one
 * finds the demo there instead of failing on its unique keys (compose's two web nodes did).
 */
export function seedAllAtStart(
  db: Db,
  options: { codeSecret?: string } = {},
): Promise<{ accounts: number; catalog: boolean }> {
  return underStartLock(db, 'tradeshelf:demo-seed', () => seedAll(db, options));
}
