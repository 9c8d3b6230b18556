import {
  catalogRoutes,
  ordersRoutes,
  REVIEW_TEXT_MAX,
  reviewMessages as m,
  reviewsRoutes,
  type OwnReview,
  type Review,
  type ReviewSort,
  type ReviewSummary,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBundle,
  createProduct,
  createVendor,
  grantOwnership,
  tokenOf,
  type Vendor,
} from '../../../test/factories/catalog.ts';
import { vendorAndOther } from '../../../test/factories/vendors.ts';
import {
  paySession,
  purchaseIdOfSession,
  sandboxPost,
  startProductCheckout,
} from '../../../test/factories/orders.ts';
import { createUser } from '../../../test/factories/users.ts';
import { expectCursorsRefused } from '../../../test/cursors.ts';
import { useTestApp } from '../../../test/harness.ts';

// Reviews through the API on a real database: who may review (bought through the sandbox's hosted
// page, refunded, disputed, revoked, lapsed), one review per product, lists, sorts and the
// summary, the vendor's one reply, and what bad input leaves behind (nothing).

const t = useTestApp();
let vendor: Vendor;
let indicator: Awaited<ReturnType<typeof createProduct>>;
let vendorToken: string;
let otherToken: string;

beforeAll(async () => {
  ({ vendor, vendorToken, otherToken } = await vendorAndOther(t, {
    vendor: { displayName: 'Review Labs' },
    signIn: (_, v) => signIn(v.userId),
  }));
  indicator = await createProduct(t, vendor.id, { title: 'Trend Lines', amount: 4_900 });
});

let seq = 0;
/** Signing in gives a buyer's roles; vendor routes find the vendor by the user. */
const signIn = (userId: string) => tokenOf(t, userId, ['buyer']);

/** A buyer with a username (reviews name people by it), signed in. */
async function newBuyer() {
  const user = await createUser(t, { username: `buyer_${++seq}_${Date.now() % 10_000}` });
  return { ...user, token: await signIn(user.id) };
}
type Buyer = Awaited<ReturnType<typeof newBuyer>>;

/** Buys a plan through the sandbox's hosted page; the sandbox session for its dashboard actions. */
async function buy(buyer: Buyer, product: { priceId: string }, scheme?: string) {
  const sessionId = await startProductCheckout(t, buyer, vendor.vendorUrl, {
    priceId: product.priceId,
    ...(scheme ? { scheme } : {}),
  });
  await paySession(t, sessionId);
  return { purchaseId: await purchaseIdOfSession(t, sessionId), sandboxId: sessionId };
}

const post = (token: string, body: unknown) =>
  t.call(reviewsRoutes.postReview, { token, body: body as object });

/** Posts a review that is saved (200); the answer. */
async function posted(token: string, body: object) {
  const res = await post(token, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { review: OwnReview; summary: ReviewSummary };
}

/** Posting a review is refused (403) with `reason`. */
async function expectPostRefused(token: string, body: object, reason: string) {
  const res = await post(token, body);
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toEqual({ error: reason, code: 'forbidden' });
}

/** A new buyer who bought `product` through the sandbox and reviewed it (answered 200). */
async function reviewer(product: { id: string; priceId: string }, rating: number, text: string) {
  const buyer = await newBuyer();
  const bought = await buy(buyer, product);
  await posted(buyer.token, { productId: product.id, rating, text });
  return { ...buyer, bought };
}

const own = (token: string, product: string) =>
  t.call(reviewsRoutes.getReview, { token, query: { product } });
const list = (query: Record<string, string>) => t.call(reviewsRoutes.allReviews, { query });
const reply = (id: string, text: unknown, token = vendorToken) =>
  t.call(reviewsRoutes.replyToReview, { token, params: { id }, body: { text } as object });

async function stored(productId: string) {
  const found = await t.database.db.execute<{
    id: string;
    user_id: string;
    rating: number;
    text: string;
    hidden_reason: string | null;
    reply_text: string | null;
  }>(sql`select id, user_id, rating, text, hidden_reason, reply_text from reviews
    where product_id = ${productId} order by created_at, id`);
  return found.rows;
}

async function cardRating(productId: string) {
  const res = await t.call(catalogRoutes.productDetails, { query: { id: productId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().product.rating as { average: number; count: number };
}

/** A product's review summary: its average and the number of reviews at 5 stars, 4, … down to 1. */
const summaryOf = (average: number, counts: [number, number, number, number, number]) => ({
  average,
  count: counts.reduce((a, b) => a + b, 0),
  distribution: counts.map((count, i) => ({ rating: 5 - i, count })),
});

async function everyPage(query: Record<string, string>) {
  const seen: Review[] = [];
  let cursor: string | undefined;
  let summary: ReviewSummary | undefined;
  let pages = 0;
  do {
    const res = await list({ ...query, ...(cursor ? { cursor } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      reviews: Review[];
      summary: ReviewSummary;
      nextCursor: string | null;
    };
    summary = body.summary;
    seen.push(...body.reviews);
    cursor = body.nextCursor ?? undefined;
    pages++;
  } while (cursor && pages < 50);
  return { reviews: seen, summary: summary!, pages };
}

describe('who may review', () => {
  it('refuses a buyer who does not own the product, with the reason, storing nothing', async () => {
    const stranger = await newBuyer();
    const body = { productId: indicator.id, rating: 5, text: 'Looks great from the screenshots.' };
    await expectPostRefused(stranger.token, body, m.notOwned);
    const mine = await own(stranger.token, indicator.id);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ review: null, canReview: false, reason: m.notOwned });
    expect((await stored(indicator.id)).filter((r) => r.user_id === stranger.id)).toEqual([]);

    const anonymous = await t.call(reviewsRoutes.postReview, {
      body: { productId: indicator.id, rating: 5, text: 'No session at all here.' },
    });
    expect(anonymous.statusCode).toBe(401);
    const unknown = await post(stranger.token, {
      productId: 'prd_missing',
      rating: 4,
      text: 'A product that is not there.',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: m.productNotFound, code: 'not_found' });
  });

  it('lets a buyer who paid write one review, edit it in place, and moves the product rating', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Edit Me' });
    const buyer = await newBuyer();
    await buy(buyer, product);
    expect((await own(buyer.token, product.id)).json()).toEqual({
      review: null,
      canReview: true,
      reason: null,
    });

    const created = await posted(buyer.token, {
      productId: product.id,
      rating: 4,
      text: '  Clean signals on the 15 minute chart.  ',
    });
    expect(created.review).toMatchObject({
      product: { id: product.id, title: 'Edit Me' },
      rating: 4,
      text: 'Clean signals on the 15 minute chart.',
      reviewer: { username: buyer.username },
      edited: false,
      reply: null,
      hidden: null,
    });
    expect(JSON.stringify(created)).not.toContain(buyer.email);
    expect(created.summary).toMatchObject({ average: 4, count: 1 });
    expect(await cardRating(product.id)).toEqual({ average: 4, count: 1 });

    const after = await posted(buyer.token, {
      productId: product.id,
      rating: 2,
      text: 'Repaints on the higher timeframes after all.',
    });
    expect(after.review.id).toBe(created.review.id);
    expect(after.review).toMatchObject({ rating: 2, edited: true });
    expect(after.review.createdAt).toBe(created.review.createdAt);
    expect(Date.parse(after.review.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(created.review.updatedAt),
    );
    expect(after.summary).toEqual(summaryOf(2, [0, 0, 0, 1, 0]));
    expect(await stored(product.id)).toHaveLength(1);
    expect(await cardRating(product.id)).toEqual({ average: 2, count: 1 });
    expect((await own(buyer.token, product.id)).json()).toMatchObject({
      review: { id: created.review.id, rating: 2 },
      canReview: true,
    });

    // Two saves at once still leave one review.
    const both = await Promise.all([
      post(buyer.token, { productId: product.id, rating: 5, text: 'Racing save number one.' }),
      post(buyer.token, { productId: product.id, rating: 3, text: 'Racing save number two.' }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    const rows = await stored(product.id);
    expect(rows).toHaveLength(1);
    expect(await cardRating(product.id)).toEqual({ average: rows[0]!.rating, count: 1 });
  });

  it('refuses a buyer whose purchase was refunded, and hides a review written before the refund', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Refund Me' });
    await reviewer(product, 5, 'Kept it, love it.');
    const refunded = await reviewer(product, 1, 'Did not work on my broker.');
    expect(await cardRating(product.id)).toEqual({ average: 3, count: 2 });

    expect(
      (await sandboxPost(t, `/sandbox/payments/${refunded.bought.sandboxId}/refund`)).statusCode,
    ).toBe(303);
    // Out of the rating and the list at once; still the author's to see, with the reason.
    expect(await cardRating(product.id)).toEqual({ average: 5, count: 1 });
    const listed = await everyPage({ vendorUrl: vendor.vendorUrl, productId: product.id });
    expect(listed.reviews.map((r) => r.text)).toEqual(['Kept it, love it.']);
    expect(listed.summary).toMatchObject({ average: 5, count: 1 });
    expect((await own(refunded.token, product.id)).json()).toMatchObject({
      review: { hidden: 'refunded', rating: 1 },
      canReview: false,
      reason: m.refunded,
    });

    const edit = { productId: product.id, rating: 2, text: 'Trying to edit after the refund.' };
    await expectPostRefused(refunded.token, edit, m.refunded);
    expect((await stored(product.id)).find((r) => r.user_id === refunded.id)).toMatchObject({
      rating: 1,
      hidden_reason: 'refunded',
    });

    // Buying again and saving it publishes it again.
    await buy(refunded, product);
    const back = await posted(refunded.token, {
      productId: product.id,
      rating: 3,
      text: 'Bought it again: works after the update.',
    });
    expect(back.review).toMatchObject({ hidden: null, rating: 3 });
    expect(await cardRating(product.id)).toEqual({ average: 4, count: 2 });
  });

  it('keeps the review when a refunded purchase was not the only way the buyer owns it', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Also In A Bundle' });
    const bundle = await createBundle(t, vendor.id, [product.id]);
    const buyer = await reviewer(product, 4, 'Solid tool, and it came with the bundle too.');
    await grantOwnership(t, buyer.id, { bundleId: bundle.id });
    await sandboxPost(t, `/sandbox/payments/${buyer.bought.sandboxId}/refund`);
    const refunds = await t.database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from domain_events
      where stream = ${buyer.bought.purchaseId} and type = 'purchase.refunded'`);
    expect(refunds.rows[0]!.n).toBe(1);
    expect((await own(buyer.token, product.id)).json()).toMatchObject({
      review: { hidden: null },
      canReview: true,
    });
    expect(await cardRating(product.id)).toEqual({ average: 4, count: 1 });
  });

  it('refuses after a dispute or the vendor’s revocation, and allows after a subscription ended', async () => {
    const product = await createProduct(t, vendor.id, {
      title: 'Monthly Signals',
      extraPrices: [1_900],
    });
    const disputed = await newBuyer();
    const d = await buy(disputed, product);
    await sandboxPost(t, `/sandbox/payments/${d.sandboxId}/dispute`);
    const body = { productId: product.id, rating: 1, text: 'I disputed the charge.' };
    await expectPostRefused(disputed.token, body, m.disputed);

    const revoked = await reviewer(product, 1, 'Shared my key, got cut off.');
    const revoke = await t.call(ordersRoutes.vendorRevokeAccess, {
      token: vendorToken,
      params: { id: revoked.bought.purchaseId },
      body: { reason: 'Shared the key in public.' },
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect((await own(revoked.token, product.id)).json()).toMatchObject({
      review: { hidden: 'revoked' },
      canReview: false,
      reason: m.revoked,
    });

    const lapsed = await newBuyer();
    const s = await buy(lapsed, { priceId: product.extraPriceIds[0]! }, 'month');
    await sandboxPost(t, `/sandbox/payments/${s.sandboxId}/end`);
    const owned = await t.database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from ownerships
      where user_id = ${lapsed.id} and product_id = ${product.id} and revoked_at is null`);
    expect(owned.rows[0]!.n).toBe(0);
    await posted(lapsed.token, {
      productId: product.id,
      rating: 4,
      text: 'Used it for a year, then stopped trading futures.',
    });
    expect(await cardRating(product.id)).toEqual({ average: 4, count: 1 });
  });

  it('does not let a vendor review its own product', async () => {
    const product = await createProduct(t, vendor.id, { title: 'My Own' });
    await grantOwnership(t, vendor.userId, { productId: product.id });
    const body = { productId: product.id, rating: 5, text: 'Best product ever, says its maker.' };
    await expectPostRefused(vendorToken, body, m.ownProduct);
  });
});

describe('the lists', () => {
  let product: Awaited<ReturnType<typeof createProduct>>;
  let second: Awaited<ReturnType<typeof createProduct>>;
  let listVendor: Awaited<ReturnType<typeof createVendor>>;
  const ratings = [5, 3, 4, 1, 5, 2, 4];

  beforeAll(async () => {
    listVendor = await createVendor(t, { displayName: 'List Vendor' });
    product = await createProduct(t, listVendor.id, { title: 'Listed Tool' });
    second = await createProduct(t, listVendor.id, { title: 'Second Tool' });
    const base = Date.parse('2026-03-01T12:00:00Z');
    // Ratings in the order they were written; times a day apart so "newest" is known.
    const all = [
      ...ratings.map((rating) => ({ rating, productId: product.id })),
      { rating: 3, productId: second.id },
      { rating: 5, productId: second.id },
    ];
    for (const [i, r] of all.entries()) {
      const buyer = await newBuyer();
      await grantOwnership(t, buyer.id, { productId: r.productId });
      const { review } = await posted(buyer.token, {
        productId: r.productId,
        rating: r.rating,
        text: `Review number ${i} of the list.`,
      });
      await t.database.db
        .execute(sql`update reviews set created_at = ${new Date(base + i * 86_400_000)}
        where id = ${review.id}`);
    }
  });

  const expected = (sort: ReviewSort) => {
    const rows = ratings.map((rating, i) => ({ rating, i }));
    const byNewest = (a: { i: number }, b: { i: number }) => b.i - a.i;
    if (sort === 'newest') rows.sort(byNewest);
    if (sort === 'highest') rows.sort((a, b) => b.rating - a.rating || byNewest(a, b));
    if (sort === 'lowest') rows.sort((a, b) => a.rating - b.rating || byNewest(a, b));
    return rows.map((r) => `Review number ${r.i} of the list.`);
  };

  it.each(['newest', 'highest', 'lowest'] as const)(
    'pages through every review once, sorted %s',
    async (sort) => {
      const { reviews, pages, summary } = await everyPage({
        vendorUrl: listVendor.vendorUrl,
        productId: product.id,
        sort,
        limit: '3',
      });
      expect(pages).toBe(3);
      expect(reviews.map((r) => r.text)).toEqual(expected(sort));
      expect(summary).toEqual(summaryOf(3.43, [2, 2, 1, 1, 1]));
      expect(reviews.every((r) => r.product.title === 'Listed Tool')).toBe(true);
      expect(reviews.every((r) => r.reviewer.username?.startsWith('buyer_'))).toBe(true);
    },
  );

  it('lists one product by its id alone, as with its vendor', async () => {
    const alone = await everyPage({ productId: product.id, sort: 'highest', limit: '4' });
    const withVendor = await everyPage({
      vendorUrl: listVendor.vendorUrl,
      productId: product.id,
      sort: 'highest',
      limit: '4',
    });
    expect(alone).toEqual(withVendor);
    expect(alone.reviews).toHaveLength(7);
    // Another vendor's storefront has none of this product's reviews.
    const elsewhere = await list({ vendorUrl: vendor.vendorUrl, productId: product.id });
    expect(elsewhere.json()).toMatchObject({ reviews: [], summary: { count: 0 } });
  });

  it('lists the whole storefront with its own average, and the product card agrees', async () => {
    const { reviews, summary } = await everyPage({ vendorUrl: listVendor.vendorUrl });
    expect(reviews).toHaveLength(9);
    expect(reviews.slice(0, 2).map((r) => r.product.title)).toEqual(['Second Tool', 'Second Tool']);
    expect(summary).toMatchObject({ count: 9, average: 3.56 });
    expect(await cardRating(product.id)).toEqual({ average: 3.43, count: 7 });
    expect(await cardRating(second.id)).toEqual({ average: 4, count: 2 });
    const search = await t.call(catalogRoutes.sellerProductList, {
      query: { vendorUrl: listVendor.vendorUrl },
    });
    const cards = search.json().products as Array<{ id: string; rating: unknown }>;
    expect(cards.find((c) => c.id === second.id)?.rating).toEqual({ average: 4, count: 2 });
  });

  it('answers 404 for an unknown vendor, 400 for a cursor it did not make or of another sort', async () => {
    expect((await list({ vendorUrl: 'no-such-vendor' })).statusCode).toBe(404);
    const first = await list({ vendorUrl: listVendor.vendorUrl, limit: '2' });
    const cursor = first.json().nextCursor as string;
    expect(cursor).toBeTruthy();
    const mixed = await list({ vendorUrl: listVendor.vendorUrl, sort: 'highest', cursor });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toMatchObject({
      code: 'validation_failed',
      error: m.badCursor,
      fields: { cursor: m.badCursor },
    });
    // A cursor made by hand is refused even when it names a real review (issue 26: cursors are signed).
    const unsigned = Buffer.from(JSON.stringify(['newest', first.json().reviews[0].id])).toString(
      'base64url',
    );
    await expectCursorsRefused(
      (cursor) => list({ vendorUrl: listVendor.vendorUrl, cursor }),
      ['not-a-cursor', Buffer.from('["newest",5]').toString('base64url'), unsigned],
    );
    const nothing = await list({ sort: 'newest' });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toMatchObject({
      code: 'validation_failed',
      fields: { vendorUrl: m.scopeRequired },
    });
    const badSort = await list({ vendorUrl: listVendor.vendorUrl, sort: 'best' });
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().code).toBe('validation_failed');
  });
});

describe('vendor replies', () => {
  it('lets the product’s vendor reply once; another vendor is not found, a buyer refused', async () => {
    const product = await createProduct(t, vendor.id, { title: 'Reply Tool' });
    const buyer = await newBuyer();
    await grantOwnership(t, buyer.id, { productId: product.id });
    const review = (
      await post(buyer.token, {
        productId: product.id,
        rating: 3,
        text: 'Good, but the alerts fire late.',
      })
    ).json().review as OwnReview;

    const stranger = await reply(review.id, 'Not my product.', otherToken);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ error: m.reviewNotFound, code: 'not_found' });
    const notVendor = await reply(review.id, 'I am only a buyer.', buyer.token);
    expect(notVendor.statusCode).toBe(403);
    expect(notVendor.json()).toEqual({ error: m.vendorsOnly, code: 'forbidden' });
    expect((await reply('rev_missing', 'Hello.')).statusCode).toBe(404);

    const first = await reply(review.id, 'Thanks! Version 2.1 fires on the bar close.');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().review).toMatchObject({
      id: review.id,
      reply: { text: 'Thanks! Version 2.1 fires on the bar close.' },
    });
    const second = await reply(review.id, 'A second reply.');
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ error: m.alreadyReplied, code: 'conflict' });
    expect((await stored(product.id))[0]!.reply_text).toBe(
      'Thanks! Version 2.1 fires on the bar close.',
    );
    const listed = await list({ vendorUrl: vendor.vendorUrl, productId: product.id });
    expect(listed.json().reviews[0].reply.text).toBe('Thanks! Version 2.1 fires on the bar close.');

    // The buyer's edit keeps the vendor's reply.
    await post(buyer.token, { productId: product.id, rating: 4, text: 'Fixed in 2.1, thanks.' });
    expect((await own(buyer.token, product.id)).json().review.reply).toMatchObject({
      text: 'Thanks! Version 2.1 fires on the bar close.',
    });
  });
});

const NUL_REFUSED = 'Text may not contain NUL (\\u0000) characters.';

describe('what is written', () => {
  let product: Awaited<ReturnType<typeof createProduct>>;
  let buyer: Buyer;

  beforeAll(async () => {
    product = await createProduct(t, vendor.id, { title: 'Text Tool' });
    buyer = await newBuyer();
    await grantOwnership(t, buyer.id, { productId: product.id });
  });

  it('stores markup as given (the page escapes it when it renders)', async () => {
    const text = '<script>alert("x")</script> <b>works</b> & fires on time';
    const { review } = await posted(buyer.token, { productId: product.id, rating: 5, text });
    expect(review.text).toBe(text);
    expect((await stored(product.id))[0]!.text).toBe(text);
    const listed = await list({ vendorUrl: vendor.vendorUrl, productId: product.id });
    expect(listed.json().reviews[0].text).toBe(text);
  });

  it.each([
    ['rating 0', { rating: 0 }, 'rating', m.ratingRequired],
    ['rating 6', { rating: 6 }, 'rating', m.ratingRequired],
    ['rating 2.5', { rating: 2.5 }, 'rating', m.ratingRequired],
    ['rating as text', { rating: '5' }, 'rating', m.ratingRequired],
    ['no rating', { rating: undefined }, 'rating', m.ratingRequired],
    // NUL is refused by the HTTP layer before the schema sees it (PostgreSQL text cannot hold it).
    ['a NUL byte', { text: 'Works fine\u0000 mostly' }, 'text', NUL_REFUSED],
    ['a control character', { text: 'Works fine\u0007 mostly' }, 'text', m.unreadable],
    ['too long', { text: 'x'.repeat(REVIEW_TEXT_MAX + 1) }, 'text', m.textTooLong],
    ['too short', { text: 'ok' }, 'text', m.textTooShort],
    ['only spaces', { text: '           ' }, 'text', m.textTooShort],
  ])(
    'refuses %s with the error shape and changes nothing',
    async (_what, change, field, message) => {
      const before = await stored(product.id);
      const ratingBefore = await cardRating(product.id);
      const res = await post(buyer.token, {
        productId: product.id,
        rating: 3,
        text: 'A perfectly fine review text.',
        ...change,
      });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ code: 'validation_failed', error: message });
      expect(body.fields[field]).toBe(message);
      expect(await stored(product.id)).toEqual(before);
      expect(await cardRating(product.id)).toEqual(ratingBefore);
    },
  );

  it('refuses a bad reply the same way', async () => {
    const id = (await stored(product.id))[0]!.id;
    for (const text of ['', 'x'.repeat(1501), 'null\u0000byte']) {
      const res = await reply(id, text);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await stored(product.id))[0]!.reply_text).toBeNull();
  });
});
