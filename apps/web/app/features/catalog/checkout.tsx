import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { endpoints, validateCouponCode } from '@tradeshelf/contract/client';
import type { ApiError, CheckoutScheme, CouponPreview, Money, Price } from '@tradeshelf/contract';
import { Alert, Spinner } from '../../components/ui.tsx';
import { readReferralId } from '../../lib/cookies.ts';
import { formatMoney, formatPrice, trialLabel } from '../../lib/format.ts';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { toApiError } from '../../lib/http.ts';
import { CheckoutAttempt, isRetryable } from '../../lib/idempotency.ts';
import { useMemberPrice } from '../membership/index.ts';
import { useServices } from '../../lib/services.tsx';
import { checkoutBundle, checkoutProduct, resetCheckout } from './slice.ts';

/** What is being bought: one plan of a product, or a bundle. */
export type CheckoutTarget =
  | { kind: 'product'; vendorUrl: string; priceId: string; scheme: CheckoutScheme }
  | { kind: 'bundle'; bundleId: string };

/** Typing pauses this long before the coupon is checked. */
export const COUPON_DEBOUNCE_MS = 400;

export type CouponCheck =
  | { state: 'empty' }
  | { state: 'checking' }
  | { state: 'valid'; preview: CouponPreview }
  | { state: 'invalid'; message: string }
  /** The check itself failed (offline, server down): the server checks again at checkout. */
  | { state: 'unknown'; message: string };

const targetKey = (t: CheckoutTarget) =>
  t.kind === 'product' ? `price:${t.priceId}` : `bundle:${t.bundleId}`;

/**
 * Live coupon validation: the contract's format rule at once, then (debounced) the server's preview
 * for this price or bundle. Answers for an older code or plan are never shown.
 */
export function useCouponPreview(code: string, target: CheckoutTarget): CouponCheck {
  const { api } = useServices();
  const trimmed = code.trim();
  const problem = trimmed ? validateCouponCode(trimmed) : null;
  const key = `${targetKey(target)}|${trimmed.toUpperCase()}`;
  const [answer, setAnswer] = useState<{ key: string; check: CouponCheck } | null>(null);
  const priceId = target.kind === 'product' ? target.priceId : undefined;
  const bundleId = target.kind === 'bundle' ? target.bundleId : undefined;
  const valid = Boolean(trimmed) && !problem;

  useEffect(() => {
    if (!valid) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api
        .call(
          endpoints.previewCoupon,
          { query: { code: trimmed, ...(priceId ? { priceId } : { bundleId: bundleId! }) } },
          { signal: abort.signal },
        )
        .then(({ coupon }) => setAnswer({ key, check: { state: 'valid', preview: coupon } }))
        .catch((err: unknown) => {
          if (abort.signal.aborted) return;
          const e = toApiError(err);
          setAnswer({
            key,
            check: isRetryable(e)
              ? { state: 'unknown', message: 'We could not check this coupon right now.' }
              : { state: 'invalid', message: e.error },
          });
        });
    }, COUPON_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [api, key, trimmed, valid, priceId, bundleId]);

  if (!trimmed) return { state: 'empty' };
  if (problem) return { state: 'invalid', message: problem };
  return answer?.key === key ? answer.check : { state: 'checking' };
}

function durationNote(preview: CouponPreview, recurring: boolean): string | null {
  if (!recurring) return null;
  return preview.duration === 'once' ? 'on the first payment' : 'on every payment';
}

/**
 * The buy box below the plan picker: coupon field with live validation, the total, and the buy
 * button. Signed out, the button is a link to log in and come back; signed in, it starts a hosted
 * checkout (one Idempotency-Key per attempt, `refId` from the referral cookie) and leaves for it.
 */
export function CheckoutPanel({
  target,
  price,
  recurring = false,
  label,
  trialNote,
  blocked = false,
  vendorUrl,
  beforeBuy,
  coupons = true,
  children,
}: {
  target: CheckoutTarget;
  /** The seller, for a bundle (a product's comes with its target): decides the member price. */
  vendorUrl?: string;
  price: Money;
  recurring?: boolean;
  label: string;
  /** For a plan with a free trial: what is charged afterwards. The button then shows no amount. */
  trialNote?: string | null;
  /** Something else stops the purchase (e.g. a missing prerequisite, explained by the page). */
  blocked?: boolean;
  /** Runs first when the buyer clicks buy (e.g. saves a TradingView username); false stops it. */
  beforeBuy?: () => Promise<boolean>;
  /** False for the platform's plans: they do not combine with coupons, so there is no coupon box. */
  coupons?: boolean;
  children?: ReactNode;
}) {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const checkout = useAppSelector((s) => s.product.checkout);
  const [code, setCode] = useState('');
  const coupon = useCouponPreview(code, target);
  const attempt = useRef(new CheckoutAttempt());
  const couponId = useId();

  // A checkout error belongs to this page; coming back from the payment page (bfcache) starts over.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => e.persisted && dispatch(resetCheckout());
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('pageshow', onShow);
      dispatch(resetCheckout());
    };
  }, [dispatch]);

  const member = useMemberPrice(
    price.amount,
    target.kind === 'product' ? target.vendorUrl : (vendorUrl ?? ''),
  );
  // A coupon replaces the member price (they never combine; the server applies the same rule).
  const memberApplies = member !== null && coupon.state === 'empty';
  const total =
    coupon.state === 'valid'
      ? coupon.preview.total
      : memberApplies
        ? { amount: price.amount - member.discount, currency: price.currency }
        : price;
  const couponBlocks = coupon.state === 'checking' || coupon.state === 'invalid';
  const busy = checkout.status === 'loading' || checkout.status === 'success';
  const disabled = blocked || couponBlocks || busy;

  const buy = async () => {
    if (disabled) return;
    if (beforeBuy && !(await beforeBuy())) return;
    const refId = readReferralId() ?? undefined;
    const couponCode = code.trim() || undefined;
    if (target.kind === 'product') {
      const body = {
        priceId: target.priceId,
        scheme: target.scheme,
        ...(couponCode ? { coupon: couponCode } : {}),
        ...(refId ? { refId } : {}),
      };
      const idempotencyKey = attempt.current.keyFor(JSON.stringify([target.vendorUrl, body]));
      const result = await dispatch(
        checkoutProduct({ vendorUrl: target.vendorUrl, body, idempotencyKey }),
      );
      if (checkoutProduct.fulfilled.match(result)) {
        attempt.current.settle();
        window.location.assign(result.payload.url);
      } else attempt.current.settle(result.payload as ApiError | undefined);
    } else {
      const body = {
        bundleId: target.bundleId,
        ...(couponCode ? { coupon: couponCode } : {}),
        ...(refId ? { refId } : {}),
      };
      const idempotencyKey = attempt.current.keyFor(JSON.stringify(body));
      const result = await dispatch(checkoutBundle({ body, idempotencyKey }));
      if (checkoutBundle.fulfilled.match(result)) {
        attempt.current.settle();
        window.location.assign(result.payload.url);
      } else attempt.current.settle(result.payload as ApiError | undefined);
    }
  };

  const here = new URLSearchParams(location.search);
  here.delete('checkout');
  const rest = here.toString();
  const back = location.pathname + (rest ? `?${rest}` : '');
  // A free trial charges nothing today: the button says so and the note says what comes after.
  const buttonText = trialNote ? label : `${label} · ${formatMoney(total.amount, total.currency)}`;
  const buttonClass = `flex items-center justify-center gap-2 rounded-lg px-4 py-3 text-center font-semibold ${
    disabled && !busy
      ? 'cursor-not-allowed bg-ink-700 text-slate-400'
      : 'bg-brand-500 text-ink-950 hover:bg-brand-400'
  }`;
  const couponMessageId = `${couponId}-message`;

  return (
    <div className="flex flex-col gap-3">
      {children}
      {coupons && (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={couponId} className="text-sm font-medium text-slate-200">
            Coupon code <span className="font-normal text-slate-400">(optional)</span>
          </label>
          <div className="relative">
            <input
              id={couponId}
              name="coupon"
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                if (checkout.status === 'failure') dispatch(resetCheckout());
              }}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={64}
              aria-invalid={coupon.state === 'invalid' || undefined}
              aria-describedby={coupon.state === 'empty' ? undefined : couponMessageId}
              placeholder="e.g. SAVE20"
              className="w-full rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 text-slate-100 uppercase placeholder:text-slate-400 placeholder:normal-case focus:border-brand-400"
            />
            {coupon.state === 'checking' && (
              <span className="absolute top-1/2 right-3 -translate-y-1/2 text-slate-400">
                <Spinner />
              </span>
            )}
          </div>
          <div id={couponMessageId} aria-live="polite" className="text-sm">
            {coupon.state === 'checking' && (
              <span className="text-slate-400">Checking the coupon…</span>
            )}
            {coupon.state === 'invalid' && <span className="text-rose-400">{coupon.message}</span>}
            {coupon.state === 'unknown' && <span className="text-amber-300">{coupon.message}</span>}
            {coupon.state === 'valid' && (
              <span className="text-brand-300">
                {coupon.preview.code.toUpperCase()} applied:{' '}
                {coupon.preview.type === 'percent'
                  ? `${coupon.preview.percentOff}% off`
                  : `${formatMoney(coupon.preview.discount.amount, coupon.preview.discount.currency)} off`}
                {durationNote(coupon.preview, recurring) &&
                  ` ${durationNote(coupon.preview, recurring)}`}
                .
              </span>
            )}
          </div>
        </div>
      )}
      {memberApplies && (
        <dl
          aria-label="Member price"
          className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-lg bg-ink-800 px-3 py-2.5 text-sm"
        >
          <dt className="text-slate-400">Price</dt>
          <dd className="text-right text-slate-200">{formatMoney(price.amount, price.currency)}</dd>
          <dt className="text-slate-400">
            {member.name} member price{recurring ? ' (every payment)' : ''}
          </dt>
          <dd className="text-right text-brand-300">
            −{formatMoney(member.discount, price.currency)}
          </dd>
          <dt className="font-semibold text-white">Total</dt>
          <dd className="text-right font-semibold text-white">
            {formatMoney(total.amount, total.currency)}
          </dd>
        </dl>
      )}
      {member && coupon.state === 'valid' && (
        <p className="text-xs text-slate-400">
          Your coupon replaces the {member.name} member price of{' '}
          {formatMoney(member.discount, price.currency)}; clear it to use the member price.
        </p>
      )}
      {coupon.state === 'valid' && (
        <dl
          aria-label="Order total"
          className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-lg bg-ink-800 px-3 py-2.5 text-sm"
        >
          <dt className="text-slate-400">Subtotal</dt>
          <dd className="text-right text-slate-200">
            {formatMoney(coupon.preview.subtotal.amount, coupon.preview.subtotal.currency)}
          </dd>
          <dt className="text-slate-400">Discount</dt>
          <dd className="text-right text-brand-300">
            −{formatMoney(coupon.preview.discount.amount, coupon.preview.discount.currency)}
          </dd>
          <dt className="font-semibold text-white">Total</dt>
          <dd className="text-right font-semibold text-white">
            {formatMoney(coupon.preview.total.amount, coupon.preview.total.currency)}
          </dd>
        </dl>
      )}
      {checkout.status === 'failure' && checkout.error && <Alert>{checkout.error.error}</Alert>}
      {isLoggedIn ? (
        <button
          type="button"
          onClick={() => void buy()}
          disabled={disabled}
          aria-busy={busy || undefined}
          className={`${buttonClass} disabled:cursor-not-allowed`}
        >
          {busy && <Spinner />}
          {checkout.status === 'success' ? 'Taking you to checkout…' : buttonText}
        </button>
      ) : (
        <Link
          to={`/login?next=${encodeURIComponent(back)}`}
          aria-disabled={blocked || undefined}
          onClick={(e) => blocked && e.preventDefault()}
          className={buttonClass}
        >
          {buttonText}
        </Link>
      )}
      {trialNote && <p className="text-center text-xs text-slate-300">{trialNote}</p>}
      {!isLoggedIn && (
        <p className="text-center text-xs text-slate-400">You will log in before you pay.</p>
      )}
    </div>
  );
}

/** Back from the hosted checkout without paying (`?checkout=cancelled`). */
/** The prices to choose from in a checkout panel (a product's plans, a membership's billing). */
export function PriceChoice({
  legend,
  prices,
  chosen,
  onChoose,
}: {
  legend: string;
  prices: readonly Price[];
  chosen: Price;
  onChoose: (priceId: string) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-200">{legend}</legend>
      {prices.map((p) => (
        <label
          key={p.priceId}
          className={`flex cursor-pointer items-center justify-between gap-3 rounded-lg border px-3 py-2.5 text-sm ${
            p.priceId === chosen.priceId ? 'border-brand-500 bg-brand-500/10' : 'border-ink-600'
          }`}
        >
          <span className="flex items-center gap-2">
            <input
              type="radio"
              name="priceId"
              value={p.priceId}
              checked={p.priceId === chosen.priceId}
              onChange={() => onChoose(p.priceId)}
            />
            <span className="font-semibold text-white">{formatPrice(p)}</span>
          </span>
          {trialLabel(p) && <span className="text-xs text-brand-300">{trialLabel(p)}</span>}
        </label>
      ))}
    </fieldset>
  );
}

export function CheckoutCancelled() {
  return <Alert tone="info">Checkout cancelled — you were not charged.</Alert>;
}

/** Shown instead of the buy box to the item's own vendor (checkout refuses them). */
export function YourItem({ what, editPath }: { what: string; editPath: string }) {
  return (
    <div role="status" className="flex flex-col gap-2 rounded-lg bg-ink-800 p-4 text-sm">
      <p className="font-semibold text-white">This is your {what}</p>
      <p className="text-slate-300">Buyers see the buy box here.</p>
      <Link
        to={editPath}
        className="self-start font-semibold text-brand-300 underline underline-offset-2 hover:decoration-2"
      >
        Edit this {what}
      </Link>
    </div>
  );
}

/** Shown instead of the buy box when the buyer already owns the item. */
export function Owned({ what }: { what: string }) {
  return (
    <div role="status" className="flex flex-col gap-2 rounded-lg bg-brand-500/15 p-4 text-sm">
      <p className="font-semibold text-brand-200">
        <span className="mr-1.5 rounded bg-brand-500/25 px-1.5 py-0.5 text-xs tracking-wide uppercase">
          Purchased
        </span>
        {what}
      </p>
      <Link
        to="/orders"
        className="self-start font-semibold text-brand-300 underline underline-offset-2 hover:decoration-2"
      >
        View your orders
      </Link>
    </div>
  );
}
