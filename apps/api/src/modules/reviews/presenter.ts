import type { OwnReview, Review, ReviewSummary } from '@tradeshelf/contract';
import { renderMarkdown } from '@tradeshelf/contract/rules/markdown';
import type { ReviewRow, StatsRow } from './repository.ts';

const iso = (d: string | Date) => (d instanceof Date ? d : new Date(d)).toISOString();

/** The reviewer is named by username only; an e-mail never leaves the users module here. */
export function presentReview(
  r: ReviewRow,
  product: { id: string; slug: string; title: string },
  username: string | null,
): Review {
  return {
    id: r.id,
    product: { id: product.id, slug: product.slug, title: product.title },
    rating: Number(r.rating),
    text: r.text,
    textHtml: renderMarkdown(r.text),
    reviewer: { username },
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    edited: r.edited_at !== null,
    reply:
      r.reply_text !== null && r.replied_at !== null
        ? {
            text: r.reply_text,
            textHtml: renderMarkdown(r.reply_text),
            createdAt: iso(r.replied_at),
          }
        : null,
  };
}

export function presentOwnReview(
  r: ReviewRow,
  product: { id: string; slug: string; title: string },
  username: string | null,
): OwnReview {
  return { ...presentReview(r, product, username), hidden: r.hidden_reason };
}

/** Average to two decimals (as the catalogue stores it), and the counts from 5 stars down. */
export function presentSummary(s: StatsRow): ReviewSummary {
  const counts = [s.c1, s.c2, s.c3, s.c4, s.c5].map(Number);
  const count = counts.reduce((a, b) => a + b, 0);
  const total = counts.reduce((a, c, i) => a + c * (i + 1), 0);
  return {
    average: count ? Math.round((total / count) * 100) / 100 : 0,
    count,
    distribution: [5, 4, 3, 2, 1].map((rating) => ({ rating, count: counts[rating - 1]! })),
  };
}
