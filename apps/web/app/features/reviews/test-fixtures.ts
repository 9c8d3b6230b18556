import type { OwnReview, Review, ReviewSummary } from '@tradeshelf/contract';
import { renderMarkdown } from '@tradeshelf/contract/rules/markdown';
import type { ReviewPage } from './api.ts';

export const PRODUCT = { id: 'prd_1', slug: 'rsi-divergence-pro', title: 'RSI Divergence Pro' };

/** Reply text as the API sends it, rendered as the API renders it. */
export const reply = (text: string, createdAt: string) => ({
  text,
  textHtml: renderMarkdown(text),
  createdAt,
});

export function review(n: number, over: Partial<Review> = {}): Review {
  const text = over.text ?? `Review number ${n}.`;
  return {
    id: `rev_${n}`,
    product: PRODUCT,
    rating: 4,
    text,
    textHtml: renderMarkdown(text),
    reviewer: { username: `trader_${n}` },
    createdAt: `2026-05-${String(10 + n).padStart(2, '0')}T10:00:00.000Z`,
    updatedAt: `2026-05-${String(10 + n).padStart(2, '0')}T10:00:00.000Z`,
    edited: false,
    reply: null,
    ...over,
  };
}

export function own(n: number, over: Partial<OwnReview> = {}): OwnReview {
  return { ...review(n, over), hidden: null, ...over };
}

export function summary(ratings: number[]): ReviewSummary {
  const total = ratings.reduce((a, b) => a + b, 0);
  return {
    average: ratings.length ? Math.round((total / ratings.length) * 100) / 100 : 0,
    count: ratings.length,
    distribution: [5, 4, 3, 2, 1].map((rating) => ({
      rating,
      count: ratings.filter((r) => r === rating).length,
    })),
  };
}

export function page(reviews: Review[], nextCursor: string | null = null): ReviewPage {
  return { reviews, summary: summary(reviews.map((r) => r.rating)), nextCursor };
}
