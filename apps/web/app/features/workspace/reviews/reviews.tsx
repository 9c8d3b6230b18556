import { REVIEW_REPLY_MAX, reviewMessages } from '@tradeshelf/contract/client';
import type { Review } from '@tradeshelf/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { SelectField } from '../../../components/select-field.tsx';
import { useToast } from '../../../components/toasts.tsx';
import { Button, FormError } from '../../../components/ui.tsx';
import { formatDate } from '../../../lib/format.ts';
import { focusRing, PageHeader, Panel, usePaged, GrowingScreen } from '../screen-kit.tsx';
import { useAction } from '../request.ts';
import {
  editReviewReply,
  fetchVendorReviews,
  replyToReview,
  type ReplyArg,
  type ReviewsArg,
  type ReviewsFilter,
} from './api.ts';

/** The reply's problem in the contract's words (the server says the same), or null. */
export function replyProblem(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return reviewMessages.replyRequired;
  if (trimmed.length > REVIEW_REPLY_MAX) return reviewMessages.replyTooLong;
  return null;
}

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(5 - n);

function ReplyForm({
  review,
  onSaved,
  onCancel,
}: {
  review: Review;
  onSaved: (r: Review) => void;
  onCancel?: () => void;
}) {
  const editing = review.reply !== null;
  const [text, setText] = useState(review.reply?.text ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useAction<ReplyArg, Review>(editing ? editReviewReply : replyToReview);
  const toast = useToast();
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (editing) area.current?.focus();
  }, [editing]);
  const error = problem ?? save.error?.fields?.text ?? null;
  return (
    <form
      noValidate
      className="flex flex-col gap-2"
      onSubmit={async (e) => {
        e.preventDefault();
        const p = replyProblem(text);
        setProblem(p);
        if (p) return;
        const saved = await save.run({ id: review.id, text: text.trim() });
        if (saved) {
          toast(editing ? 'Reply updated.' : 'Reply published.');
          onSaved(saved);
        }
      }}
    >
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {editing ? 'Edit your reply' : 'Your reply'}
      </label>
      <textarea
        id={id}
        ref={area}
        rows={3}
        maxLength={REVIEW_REPLY_MAX}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint`}
        className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2 text-slate-100"
      />
      <p id={`${id}-hint`} className={`text-sm ${error ? 'text-rose-400' : 'text-slate-400'}`}>
        {error ??
          `Shown under the review on your product page. ${text.trim().length}/${REVIEW_REPLY_MAX}`}
      </p>
      <FormError error={save.error} />
      <div className="flex gap-2">
        <Button type="submit" loading={save.busy}>
          {editing ? 'Save reply' : 'Publish reply'}
        </Button>
        {onCancel && (
          <Button type="button" variant="ghost" disabled={save.busy} onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

function ReviewItem({ review, onSaved }: { review: Review; onSaved: (r: Review) => void }) {
  const [editing, setEditing] = useState(false);
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-ink-700 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold text-white">
          <span aria-label={`${review.rating} of 5 stars`} className="text-amber-300">
            {stars(review.rating)}
          </span>{' '}
          {review.product.title}
        </p>
        <p className="text-xs text-slate-400">
          {review.reviewer.username ?? 'A buyer'} · {formatDate(review.createdAt)}
          {review.edited ? ' · edited' : ''}
        </p>
      </div>
      <p className="text-sm whitespace-pre-line text-slate-200">{review.text}</p>
      {review.reply && !editing ? (
        <div className="flex flex-col gap-2 rounded-lg border-l-2 border-brand-500 bg-ink-800 px-3 py-2">
          <p className="text-xs text-slate-400">
            Your reply · {formatDate(review.reply.createdAt)}
          </p>
          <p className="text-sm whitespace-pre-line text-slate-200">{review.reply.text}</p>
          <button
            type="button"
            className={`self-start text-sm text-brand-300 underline ${focusRing}`}
            onClick={() => setEditing(true)}
          >
            Edit reply
          </button>
        </div>
      ) : (
        <ReplyForm
          review={review}
          onCancel={editing ? () => setEditing(false) : undefined}
          onSaved={(r) => {
            setEditing(false);
            onSaved(r);
          }}
        />
      )}
    </li>
  );
}

/** The rating filter's choices, five stars first. */
const ratings = [5, 4, 3, 2, 1].map((n) => [String(n), `${n} star${n === 1 ? '' : 's'}`] as const);

export function VendorReviews() {
  const [filter, setFilter] = useState<ReviewsFilter>({});
  const reviews = usePaged<ReviewsArg, Review>(fetchVendorReviews, filter);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Reviews">
        What buyers say about your products, newest first. Reply once to each; you can edit your
        reply later.
      </PageHeader>
      <Panel title="Your reviews">
        <div className="flex flex-wrap items-end gap-4">
          <SelectField
            label="Rating"
            value={filter.rating ? String(filter.rating) : ''}
            options={ratings}
            empty="All ratings"
            onChange={(v) => setFilter({ ...filter, rating: v ? Number(v) : undefined })}
          />
          <label className="flex items-center gap-2 pb-2 text-sm text-slate-200">
            <input
              type="checkbox"
              checked={filter.unreplied ?? false}
              onChange={(e) => setFilter({ ...filter, unreplied: e.target.checked || undefined })}
            />
            Only reviews without a reply
          </label>
        </div>
        <GrowingScreen
          list={reviews}
          noun="reviews"
          loading="Loading your reviews…"
          empty={
            <p className="text-sm text-slate-300">
              {filter.rating || filter.unreplied
                ? 'No reviews match these filters.'
                : 'No reviews yet. Buyers can review a product once they own it.'}
            </p>
          }
        >
          {(items) => (
            <ul className="flex flex-col gap-3">
              {items.map((r) => (
                <ReviewItem key={r.id} review={r} onSaved={reviews.replace} />
              ))}
            </ul>
          )}
        </GrowingScreen>
      </Panel>
    </div>
  );
}
