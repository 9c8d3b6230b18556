import { reviewMessages as m, reviewsRoutes as r, type Review } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createProduct,
  grantOwnership,
  tokenOf,
  type Vendor,
} from '../../../test/factories/catalog.ts';
import { vendorAndOther } from '../../../test/factories/vendors.ts';
import { createUser } from '../../../test/factories/users.ts';
import { FORGED_CURSORS } from '../../../test/cursors.ts';
import { useTestApp } from '../../../test/harness.ts';

// The vendor's reviews screen through the API: its published reviews across its products, newest
// first, paged, filtered by stars or "no reply yet"; rewriting a reply. A buyer is refused (403),
// another vendor's reviews are not found (404), bad filters answer 400 with the field.

const t = useTestApp();
let vendor: Vendor;
let other: Vendor;
let vendorToken: string;
let otherToken: string;
let buyerToken: string;
/** Newest first, as the list shows them. */
let written: Review[] = [];

/** Signing in gives a buyer's roles; vendor routes find the vendor by the user. */
const signIn = (userId: string) => tokenOf(t, userId, ['buyer']);

let seq = 0;
async function review(productId: string, rating: number, text: string): Promise<Review> {
  const user = await createUser(t, { username: `rev_${++seq}_${Date.now() % 10_000}` });
  await grantOwnership(t, user.id, { productId });
  const res = await t.call(r.postReview, {
    token: await signIn(user.id),
    body: { productId, rating, text },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().review;
}

const list = (query: Record<string, string> = {}, token = vendorToken) =>
  t.call(r.vendorReviews, { token, query });

const ids = (res: { json(): { reviews: Review[] } }) => res.json().reviews.map((x) => x.id);

beforeAll(async () => {
  ({ vendor, other, vendorToken, otherToken } = await vendorAndOther(t, {
    vendor: { displayName: 'Review Desk' },
    other: { displayName: 'Other Desk' },
    signIn: (_, v) => signIn(v.userId),
  }));
  buyerToken = await signIn((await createUser(t)).id);
  const a = await createProduct(t, vendor.id, { title: 'Trend Lines' });
  const b = await createProduct(t, vendor.id, { title: 'Volume Map' });
  const foreign = await createProduct(t, other.id, { title: 'Elsewhere' });
  for (const [product, rating] of [
    [a, 5],
    [b, 2],
    [a, 4],
    [b, 5],
    [a, 1],
  ] as const)
    written.unshift(await review(product.id, rating, `Rated ${rating} stars after a month.`));
  await review(foreign.id, 5, 'Another vendor’s product entirely.');
  // One review hidden by a refund: the vendor's list leaves it out (ADR 036).
  await t.database.db.execute(
    sql`update reviews set hidden_reason = 'refunded' where id = ${written[4]!.id}`,
  );
  written = written.slice(0, 4);
});

describe('the vendor’s reviews', () => {
  it('lists its published reviews newest first, a page at a time, never another vendor’s', async () => {
    const all = await list();
    expect(all.statusCode, all.body).toBe(200);
    expect(ids(all)).toEqual(written.map((w) => w.id));
    expect(all.json().reviews[0]).toMatchObject({
      product: { title: 'Trend Lines' },
      rating: 1,
      reply: null,
    });

    const first = await list({ limit: '3' });
    expect(ids(first)).toEqual(written.slice(0, 3).map((w) => w.id));
    const second = await list({ limit: '3', cursor: first.json().nextCursor });
    expect(ids(second)).toEqual([written[3]!.id]);
    expect(second.json().nextCursor).toBeNull();

    // Another vendor: only its own review; this vendor's cursor finds nothing of theirs.
    expect((await list({}, otherToken)).json().reviews).toHaveLength(1);
    const foreignCursor = await list({ cursor: first.json().nextCursor }, otherToken);
    expect(foreignCursor.json().reviews).toEqual([]);
  });

  it('filters by stars and by “no reply yet”', async () => {
    const fives = await list({ rating: '5' });
    expect(fives.json().reviews.map((x: Review) => x.rating)).toEqual([5]);
    const replied = written[1]!;
    const res = await t.call(r.replyToReview, {
      token: vendorToken,
      params: { id: replied.id },
      body: { text: 'Thank you for the kind words.' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const open = await list({ unreplied: 'true' });
    expect(ids(open)).toEqual(written.filter((w) => w.id !== replied.id).map((w) => w.id));
    expect(ids(await list({ unreplied: 'false' }))).toHaveLength(4);
  });

  it('rewrites a reply; with no reply yet it is a conflict, another vendor’s is not found', async () => {
    const target = written[2]!;
    const none = await t.call(r.editReviewReply, {
      token: vendorToken,
      params: { id: target.id },
      body: { text: 'Edited before writing.' },
    });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ error: m.noReplyYet, code: 'conflict' });
    await t.call(r.replyToReview, {
      token: vendorToken,
      params: { id: target.id },
      body: { text: 'First answer.' },
    });
    const edited = await t.call(r.editReviewReply, {
      token: vendorToken,
      params: { id: target.id },
      body: { text: 'A better answer, with the fix in version 2.' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().review.reply.text).toBe('A better answer, with the fix in version 2.');
    const stored = await t.database.db.execute<{ reply_text: string }>(
      sql`select reply_text from reviews where id = ${target.id}`,
    );
    expect(stored.rows[0]!.reply_text).toBe('A better answer, with the fix in version 2.');

    const foreign = await t.call(r.editReviewReply, {
      token: otherToken,
      params: { id: target.id },
      body: { text: 'Not mine to edit.' },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: m.reviewNotFound, code: 'not_found' });
    const empty = await t.call(r.editReviewReply, {
      token: vendorToken,
      params: { id: target.id },
      body: { text: '   ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.text).toBe(m.replyRequired);
    // Unchanged by the refused calls.
    const after = await t.database.db.execute<{ reply_text: string }>(
      sql`select reply_text from reviews where id = ${target.id}`,
    );
    expect(after.rows[0]!.reply_text).toBe('A better answer, with the fix in version 2.');
  });

  it('answers 400 with the field for bad filters and cursors', async () => {
    for (const [query, field, message] of [
      [{ rating: '6' }, 'rating', m.ratingFilter],
      [{ rating: 'x' }, 'rating', m.ratingFilter],
      [{ unreplied: 'maybe' }, 'unreplied', m.unrepliedFilter],
      [{ cursor: 'not-ours' }, 'cursor', m.badCursor],
      // Made by hand in the old unsigned shape, or carrying a time (issue 26).
      ...[Buffer.from('["vendor","rev_x"]').toString('base64url'), ...FORGED_CURSORS].map(
        (cursor) => [{ cursor }, 'cursor', m.badCursor] as const,
      ),
    ] as const) {
      const res = await list(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().fields[field]).toBe(message);
    }
  });

  it('refuses a buyer (403)', async () => {
    for (const res of [
      await list({}, buyerToken),
      await t.call(r.editReviewReply, {
        token: buyerToken,
        params: { id: written[0]!.id },
        body: { text: 'I am a buyer.' },
      }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: m.vendorsOnly, code: 'forbidden' });
    }
  });
});
