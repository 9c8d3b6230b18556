import type { Review } from '@tradeshelf/contract';

/** schema.org `Review`s for a page's JSON-LD: only reviews that exist, at most five. */
export function reviewsJsonLd(reviews: readonly Review[]) {
  return reviews.slice(0, 5).map((r) => ({
    '@type': 'Review',
    reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    author: { '@type': 'Person', name: r.reviewer.username ?? 'Verified buyer' },
    datePublished: r.createdAt.slice(0, 10),
    reviewBody: r.text,
  }));
}
