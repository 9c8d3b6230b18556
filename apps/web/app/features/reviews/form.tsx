// The review form, loaded when a buyer opens it (components.tsx).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  hasUnreadableCharacters,
  REVIEW_TEXT_MAX,
  REVIEW_TEXT_MIN,
  reviewMessages as m,
} from '@tradeshelf/contract/client';
import type { OwnReview } from '@tradeshelf/contract';
import { TextAreaField } from '../../components/textarea-field.tsx';
import { Alert, Button } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { postReview } from './api.ts';
import { reviewClicked } from './slice.ts';

/** The 1–5 star input: a radio group, so arrow keys move the rating and Space picks it. */
function StarInput({
  value,
  onChange,
  error,
}: {
  value: number | null;
  onChange: (n: number) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const words = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'];
  return (
    <fieldset
      className="flex flex-col gap-1.5"
      aria-describedby={error ? `${id}-error` : undefined}
      data-testid="star-input"
    >
      <legend className="text-sm font-medium text-slate-200">Your rating</legend>
      <div className="flex items-center gap-1">
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className="cursor-pointer">
            <input
              type="radio"
              name={`${id}-rating`}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="peer sr-only"
            />
            <span
              aria-hidden
              className={`block rounded px-0.5 text-3xl leading-none peer-focus-visible:outline-2 peer-focus-visible:outline-brand-400 ${
                value !== null && n <= value ? 'text-amber-300' : 'text-slate-400'
              }`}
            >
              ★
            </span>
            <span className="sr-only">{`${n} ${n === 1 ? 'star' : 'stars'}: ${words[n]}`}</span>
          </label>
        ))}
        <span className="ml-2 text-sm text-slate-300" aria-hidden>
          {value ? words[value] : ''}
        </span>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-rose-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}

type Problems = { rating?: string; text?: string };

/** The checks the server makes, first, so most mistakes show without a round trip. */
export function checkReview(rating: number | null, text: string): Problems {
  const problems: Problems = {};
  if (rating === null) problems.rating = m.ratingRequired;
  if (hasUnreadableCharacters(text, true)) problems.text = m.unreadable;
  else if (!text.trim()) problems.text = m.textRequired;
  else if (text.trim().length < REVIEW_TEXT_MIN) problems.text = m.textTooShort;
  else if (text.trim().length > REVIEW_TEXT_MAX) problems.text = m.textTooLong;
  return problems;
}

export default function ReviewForm({
  productId,
  existing,
}: {
  productId: string;
  existing: OwnReview | null;
}) {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const update = useAppSelector((s) => s.review.update);
  const [rating, setRating] = useState<number | null>(existing?.rating ?? null);
  const [text, setText] = useState(existing?.text ?? '');
  const [problems, setProblems] = useState<Problems>({});
  const form = useRef<HTMLFormElement>(null);
  const titleId = useId();

  // Opened where the buyer is: brought into view with the stars focused.
  useEffect(() => {
    const el = form.current;
    if (!el) return;
    el.scrollIntoView?.({ block: 'center' });
    (
      el.querySelector<HTMLInputElement>('input[type=radio]:checked') ??
      el.querySelector<HTMLInputElement>('input[type=radio]')
    )?.focus({ preventScroll: true });
  }, []);
  // After a refused save (not while fields are being fixed), the first field to fix gets the focus.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (!refusals) return;
    form.current
      ?.querySelector<HTMLElement>('fieldset[aria-describedby] input, [aria-invalid="true"]')
      ?.focus();
  }, [refusals]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = checkReview(rating, text);
    setProblems(found);
    if (found.rating || found.text) {
      setRefusals((n) => n + 1);
      return;
    }
    void dispatch(postReview({ productId, rating: rating!, text })).then((result) => {
      if (postReview.fulfilled.match(result)) toast(m.saved);
      else if (result.payload?.fields) {
        setProblems(result.payload.fields as Problems);
        setRefusals((n) => n + 1);
      }
    });
  };

  const failed = update.status === 'failure' && update.error && !update.error.fields;
  return (
    <form
      ref={form}
      noValidate
      onSubmit={submit}
      aria-labelledby={titleId}
      className="flex flex-col gap-4 rounded-xl border border-ink-600 bg-ink-900 p-4"
      data-testid="review-form"
    >
      <h3 id={titleId} className="text-lg font-bold text-white">
        {existing ? 'Edit your review' : 'Write a review'}
      </h3>
      <StarInput
        value={rating}
        onChange={(n) => {
          setRating(n);
          setProblems((p) => ({ ...p, rating: undefined }));
        }}
        error={problems.rating}
      />
      <TextAreaField
        label="Your review"
        rows={5}
        maxLength={REVIEW_TEXT_MAX}
        value={text}
        onChange={(v) => {
          setText(v);
          setProblems((p) => ({ ...p, text: undefined }));
        }}
        error={problems.text}
        hint={`At least ${REVIEW_TEXT_MIN} characters, at most ${REVIEW_TEXT_MAX}. Other traders see your username.`}
        placeholder="What do you trade with it, and how does it work for you?"
      />
      {failed && <Alert>{update.error!.error}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={update.status === 'loading'}>
          {existing ? 'Save changes' : 'Publish review'}
        </Button>
        <Button type="button" variant="ghost" onClick={() => dispatch(reviewClicked(false))}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
