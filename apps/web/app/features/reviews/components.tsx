import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import {
  reviewMessages as m,
  reviewSortLabels,
  reviewSorts,
  type ReviewSort,
} from '@tradeshelf/contract/client';
import type { Review, ReviewSummary } from '@tradeshelf/contract';
import { Alert, Button } from '../../components/ui.tsx';
import { useHydrated } from '../../lib/hydrated.ts';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { MarkdownHtml } from '../../lib/markdown.tsx';
import { productPath } from '../../lib/paths.ts';
import type { ReviewDetails, ReviewPage } from './api.ts';
import { useReviewList } from './hooks.ts';
import { ownReviewDetails, reviewClicked } from './slice.ts';
import { countLabel, utcDayLabel as formatDay } from '../../lib/format.ts';

// Only a buyer who opens it needs the form: it loads then, not with every product page.
const ReviewForm = lazy(() => import('./form.tsx'));

/** Five stars, filled to the rating (rounded to the nearest half down to whole stars). */
export function StarRow({
  rating,
  className = 'text-base',
}: {
  rating: number;
  className?: string;
}) {
  const full = Math.round(rating);
  return (
    <span className={`tracking-tight ${className}`} aria-hidden>
      <span className="text-amber-300">{'★'.repeat(full)}</span>
      <span className="text-slate-400">{'★'.repeat(5 - full)}</span>
    </span>
  );
}

function ReviewSummaryView({ summary }: { summary: ReviewSummary }) {
  if (!summary.count) return null;
  return (
    <div className="flex flex-wrap items-center gap-x-8 gap-y-4" data-testid="review-summary">
      <div>
        <p className="text-4xl font-extrabold text-white">
          {summary.average.toFixed(1)}
          <span className="sr-only"> out of 5</span>
        </p>
        <StarRow rating={summary.average} className="text-lg" />
        <p className="text-sm text-slate-400">Based on {countLabel(summary.count, 'review')}</p>
      </div>
      <ul className="flex min-w-52 flex-1 flex-col gap-1 text-sm" aria-label="Ratings by stars">
        {summary.distribution.map((d) => (
          <li key={d.rating} className="flex items-center gap-2">
            <span className="w-14 text-slate-300">{countLabel(d.rating, 'star')}</span>
            <progress className="review-bar" max={summary.count} value={d.count} aria-hidden />
            <span className="w-8 text-right text-slate-300 tabular-nums">
              {d.count}
              <span className="sr-only"> {d.count === 1 ? 'review' : 'reviews'}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ReviewItem({
  review,
  vendorName,
  showProduct = false,
}: {
  review: Review;
  vendorName: string;
  showProduct?: boolean;
}) {
  return (
    <article className="flex flex-col gap-2 border-t border-ink-700 pt-4" data-testid="review-item">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="sr-only">Rated {review.rating} out of 5</span>
        <StarRow rating={review.rating} />
        <span className="font-semibold text-white">
          {review.reviewer.username ?? 'Verified buyer'}
        </span>
        <span className="text-slate-400">
          {formatDay(review.createdAt)}
          {review.edited && ' · edited'}
        </span>
      </div>
      {showProduct && review.product.slug && (
        <p className="text-sm text-slate-400">
          on{' '}
          <Link
            to={productPath(review.product)}
            className="font-medium text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            {review.product.title}
          </Link>
        </p>
      )}
      {/* The buyer's Markdown, rendered and sanitised by the API (ADR 056). */}
      <MarkdownHtml html={review.textHtml} className="text-slate-200" />
      {review.reply && (
        <div className="ml-4 rounded-lg border-l-2 border-brand-500/60 bg-ink-800 px-4 py-3 text-sm">
          <p className="font-semibold text-slate-100">
            Reply from {vendorName}{' '}
            <span className="font-normal text-slate-400">
              · {formatDay(review.reply.createdAt)}
            </span>
          </p>
          <MarkdownHtml html={review.reply.textHtml} className="mt-1" />
        </div>
      )}
    </article>
  );
}

function ReviewListView({
  list,
  vendorName,
  showProduct,
  empty,
}: {
  list: ReturnType<typeof useReviewList>;
  vendorName: string;
  showProduct: boolean;
  empty: string;
}) {
  const sortId = useId();
  const { page, loading, error } = list;
  // The product page hydrates this late (ADR 070): until then its controls would do nothing.
  const hydrated = useHydrated();
  return (
    <div className="flex flex-col gap-4">
      {page.reviews.length > 1 || page.nextCursor ? (
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={sortId} className="text-slate-300">
            Sort reviews
          </label>
          <select
            id={sortId}
            value={list.sort}
            onChange={(e) => list.changeSort(e.target.value as ReviewSort)}
            disabled={!hydrated}
            className="rounded-lg border border-ink-600 bg-ink-900 px-2 py-1.5 text-slate-100"
          >
            {reviewSorts.map((s) => (
              <option key={s} value={s}>
                {reviewSortLabels[s]}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {page.reviews.length ? (
        <ul className="flex flex-col gap-4" aria-busy={loading || undefined} aria-label="Reviews">
          {page.reviews.map((r) => (
            <li key={r.id}>
              <ReviewItem review={r} vendorName={vendorName} showProduct={showProduct} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-400">{empty}</p>
      )}
      {error && <Alert>{error.error}</Alert>}
      {page.nextCursor && (
        <Button
          type="button"
          variant="ghost"
          className="self-start"
          loading={loading}
          disabled={!hydrated}
          onClick={list.more}
        >
          More reviews
        </Button>
      )}
    </div>
  );
}

/** The buyer's own review (hidden ones too, with why) and the way to write or edit it. */
function OwnReviewPanel({ details, vendorName }: { details: ReviewDetails; vendorName: string }) {
  const clicked = useAppSelector((s) => s.review.reviewClicked);
  const dispatch = useAppDispatch();
  const open = () => dispatch(reviewClicked(true));
  const heading = useRef<HTMLHeadingElement>(null);
  const { review, canReview } = details;
  // After a save the form closes: the focus goes to the review it saved.
  const updateStatus = useAppSelector((s) => s.review.update.status);
  const saving = useRef(false);
  useEffect(() => {
    if (saving.current && updateStatus === 'success') heading.current?.focus();
    saving.current = updateStatus === 'loading';
  }, [updateStatus]);
  if (!review && !canReview) return null;
  return (
    <div className="flex flex-col gap-3" data-testid="own-review">
      {review && (
        <div className="rounded-xl border border-brand-500/30 bg-brand-500/5 p-4">
          <h3 ref={heading} tabIndex={-1} className="text-base font-bold text-white outline-none">
            Your review
          </h3>
          {review.hidden && (
            <p className="mt-2 text-sm text-amber-200">
              {m.hidden[review.hidden]}
              {canReview && ' Save it again to publish it.'}
            </p>
          )}
          <div className="mt-1">
            <ReviewItem review={review} vendorName={vendorName} />
          </div>
        </div>
      )}
      {canReview && !clicked && (
        <Button type="button" variant="ghost" className="self-start" onClick={open}>
          {review ? 'Edit your review' : 'Write a review'}
        </Button>
      )}
      {canReview && clicked && (
        <Suspense fallback={<p className="text-sm text-slate-400">Opening the form…</p>}>
          <ReviewForm productId={details.productId} existing={review} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * The product page's reviews: summary, the buyer's own, the form, the list with its sort. The page
 * fetches the buyer's details (`useFetchReviewDetails`, own.tsx); they show once hydrated, as the server
 * renders for nobody in particular.
 */
export function ProductReviews({
  productId,
  vendorUrl,
  vendorName,
  initial,
  initialSort,
}: {
  productId: string;
  vendorUrl: string;
  vendorName: string;
  initial: ReviewPage;
  initialSort: ReviewSort;
}) {
  const hydrated = useHydrated();
  const signedIn = useAppSelector(ownReviewDetails(productId));
  const details = hydrated ? signedIn : null;
  const list = useReviewList({ vendorUrl, productId }, initial, initialSort);
  // The server's summary, until the buyer's save answers with a newer one (merged into the list).
  const summary = list.page.summary;
  return (
    <section
      id="reviews"
      aria-labelledby="reviews-heading"
      className="flex flex-col gap-5 rounded-2xl border border-ink-700 bg-ink-900 p-4 sm:p-6"
    >
      <h2 id="reviews-heading" className="text-xl font-bold text-white">
        Reviews
      </h2>
      <ReviewSummaryView summary={summary} />
      {details && <OwnReviewPanel details={details} vendorName={vendorName} />}
      <ReviewListView
        list={list}
        vendorName={vendorName}
        showProduct={false}
        empty={
          details?.canReview && !details.review
            ? 'No reviews yet. Be the first to review it.'
            : 'No reviews yet.'
        }
      />
    </section>
  );
}

/** A storefront's reviews across its products. */
export function VendorReviews({
  vendor,
  initial,
  initialSort,
}: {
  vendor: { vendorUrl: string; displayName: string };
  initial: ReviewPage;
  initialSort: ReviewSort;
}) {
  const list = useReviewList({ vendorUrl: vendor.vendorUrl }, initial, initialSort);
  return (
    <section aria-labelledby="reviews-heading" id="reviews" className="flex flex-col gap-4">
      <h2 id="reviews-heading" className="text-xl font-bold text-white">
        Reviews
      </h2>
      <ReviewSummaryView summary={list.page.summary} />
      <ReviewListView
        list={list}
        vendorName={vendor.displayName}
        showProduct
        empty="No reviews yet."
      />
    </section>
  );
}
