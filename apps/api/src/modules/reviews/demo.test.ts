import { authRoutes, catalogRoutes, reviewsRoutes, type Review } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { useDemoApp } from '../../../test/demo.ts';
import { DEMO_PASSWORD } from '../../db/seed.ts';
import { findAccountByEmail } from '../users/index.ts';
import { demoReviewers, demoReviews } from './demo-reviews.ts';
import { demoReviewerEmail } from './seed.ts';

// The demo data on first start: products carry reviews from demo reviewers, with replies, and
// their ratings are those reviews' (no made-up figures left).

const t = useDemoApp();

const search = async (q: string) => {
  const res = await t.call(catalogRoutes.search, { query: { q, limit: '5' } });
  return (res.json().products as Array<{ id: string; title: string; rating: unknown }>).find(
    (p) => p.title === q,
  )!;
};

it('seeds every demo review once, by reviewers who own what they reviewed', async () => {
  const expected = Object.values(demoReviews).flat();
  const found = await t.database.db.execute<{ n: number; owned: number; replies: number }>(sql`
    select count(*)::int as n,
      count(*) filter (where exists (select 1 from ownerships o where o.user_id = r.user_id
        and o.product_id = r.product_id and o.revoked_at is null))::int as owned,
      count(reply_text)::int as replies
    from reviews r`);
  expect(found.rows[0]).toEqual({
    n: expected.length,
    owned: expected.length,
    replies: expected.filter((r) => r.reply).length,
  });
  const buyer = await findAccountByEmail(t.database.db, 'buyer@demo.tradeshelf.test');
  const mine = await t.database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from reviews where user_id = ${buyer!.id}`,
  );
  expect(mine.rows[0]!.n).toBe(0);
  // Reviewers exist only to have written them: they cannot sign in.
  const login = await t.call(authRoutes.login, {
    body: { email: demoReviewerEmail(demoReviewers[0]), password: DEMO_PASSWORD },
  });
  expect(login.statusCode).toBe(401);
});

it('gives products the rating of their reviews, and none to products without any', async () => {
  const rsi = await search('RSI Divergence Pro');
  const ratings = demoReviews['RSI Divergence Pro']!.map((r) => r.rating);
  expect(rsi.rating).toEqual({
    average: Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 100) / 100,
    count: ratings.length,
  });
  const unreviewed = await search('Harmonic Pattern Finder');
  expect(unreviewed.rating).toEqual({ average: 0, count: 0 });

  const res = await t.call(reviewsRoutes.allReviews, {
    query: { vendorUrl: 'alpha-edge', productId: rsi.id },
  });
  expect(res.statusCode, res.body).toBe(200);
  const reviews = res.json().reviews as Review[];
  expect(reviews).toHaveLength(6);
  expect(reviews[0]).toMatchObject({
    reviewer: { username: 'ScalpSam' },
    rating: 5,
    reply: { text: expect.stringMatching(/^Thanks Sam!/) },
  });
  expect(reviews.some((r) => r.edited)).toBe(true);
});
