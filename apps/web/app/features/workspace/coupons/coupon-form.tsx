import {
  COUPON_CODE_MAX,
  couponProblems,
  type CouponDraft,
  type FieldProblems,
} from '@tradeshelf/contract/client';
import type { ApiError, CouponInput, VendorCoupon } from '@tradeshelf/contract';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Button, Field, FormError } from '../../../components/ui.tsx';
import { amountText, parseAmount } from '../money-format.ts';
import { SelectField } from '../../../components/select-field.tsx';

/** The form's text, as typed. */
export interface CouponFormValues {
  code: string;
  type: 'percent' | 'amount';
  percentOff: string;
  amountOff: string;
  currency: string;
  duration: 'once' | 'forever';
  scope: 'all' | 'products';
  productIds: string[];
  /** `datetime-local` values, in the reader's time zone. */
  startsAt: string;
  expiresAt: string;
  maxRedemptions: string;
  maxPerBuyer: string;
  isActive: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO time as a `datetime-local` value in the reader's time zone. */
const localInput = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

export function valuesOf(c: VendorCoupon | null): CouponFormValues {
  return {
    code: c?.code ?? '',
    type: c?.type ?? 'percent',
    percentOff: c?.percentOff != null ? String(c.percentOff) : '',
    amountOff: c?.amountOff ? amountText(c.amountOff.amount) : '',
    currency: c?.amountOff?.currency ?? 'usd',
    duration: c?.duration ?? 'once',
    scope: c?.scope ?? 'all',
    productIds: c?.products.map((p) => p.id) ?? [],
    startsAt: localInput(c?.startsAt ?? null),
    expiresAt: localInput(c?.expiresAt ?? null),
    maxRedemptions: c?.maxRedemptions != null ? String(c.maxRedemptions) : '',
    maxPerBuyer: c?.maxPerBuyer != null ? String(c.maxPerBuyer) : '',
    isActive: c?.isActive ?? true,
  };
}

const count = (text: string) => (text.trim() === '' ? null : Number(text.trim()));
/** A `datetime-local` value as ISO; a value the browser could not read stays as typed (and fails). */
const when = (text: string) => {
  if (!text.trim()) return null;
  const t = new Date(text).getTime();
  return Number.isNaN(t) ? text : new Date(t).toISOString();
};

/** The request body the form's values make, and their problems (the contract's rules). */
export function toInput(v: CouponFormValues): { body: CouponInput; problems: FieldProblems } {
  const draft: CouponDraft = {
    code: v.code.trim(),
    type: v.type,
    percentOff: v.type === 'percent' ? count(v.percentOff) : null,
    amountOff: v.type === 'amount' ? (v.amountOff.trim() ? parseAmount(v.amountOff) : null) : null,
    currency: v.type === 'amount' ? v.currency : null,
    scope: v.scope,
    productIds: v.scope === 'products' ? v.productIds : [],
    startsAt: when(v.startsAt),
    expiresAt: when(v.expiresAt),
    maxRedemptions: count(v.maxRedemptions),
    maxPerBuyer: count(v.maxPerBuyer),
  };
  const problems = couponProblems(draft);
  return { body: { ...draft, duration: v.duration, isActive: v.isActive }, problems };
}

const currencies = ['usd', 'eur', 'gbp'];
const scopes = [
  ['all', 'All my products and bundles'],
  ['products', 'Chosen products'],
] as const;
type TypedKey =
  'code' | 'percentOff' | 'amountOff' | 'startsAt' | 'expiresAt' | 'maxRedemptions' | 'maxPerBuyer';

export function CouponForm({
  coupon,
  products,
  onSave,
  onCancel,
  error,
  busy,
}: {
  coupon: VendorCoupon | null;
  products: Array<{ id: string; title: string; isActive: boolean }>;
  /** Answers whether it was saved; `error` is the API's answer when not. */
  onSave: (body: CouponInput) => Promise<boolean>;
  onCancel: () => void;
  error: ApiError | null;
  busy: boolean;
}) {
  const [v, setV] = useState<CouponFormValues>(() => valuesOf(coupon));
  const [problems, setProblems] = useState<FieldProblems>({});
  const [failed, setFailed] = useState(false);
  const set = <K extends keyof CouponFormValues>(k: K, value: CouponFormValues[K]) => {
    setV((old) => ({ ...old, [k]: value }));
    setFailed(false);
  };
  const shown: FieldProblems =
    failed && error?.fields ? { ...error.fields, ...problems } : problems;
  /** A text field's value, its edits and its problem, by the value's name. */
  const typed = (k: TypedKey) => ({
    value: v[k],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(k, e.target.value),
    error: shown[k],
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { body, problems: found } = toInput(v);
    setProblems(found);
    setFailed(false);
    if (Object.keys(found).length) return;
    if (!(await onSave(body))) setFailed(true);
  };

  const choices = [
    ...products,
    // A product chosen earlier that is no longer offered still shows, so it can be unticked.
    ...(coupon?.products ?? [])
      .filter((p) => !products.some((o) => o.id === p.id))
      .map((p) => ({ ...p, isActive: false })),
  ];
  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={coupon ? `Edit coupon ${coupon.code}` : 'New coupon'}
      className="flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-5 sm:p-6"
    >
      <h2 className="text-lg font-semibold text-white">
        {coupon ? `Edit ${coupon.code}` : 'New coupon'}
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Code"
          maxLength={COUPON_CODE_MAX + 10}
          {...typed('code')}
          hint="Buyers type it at checkout; letters, digits, - and _."
        />
        <SelectField
          label="Discount type"
          value={v.type}
          options={[
            ['percent', 'Percent off'],
            ['amount', 'Amount off'],
          ]}
          onChange={(type) => type && set('type', type)}
        />
        {v.type === 'percent' ? (
          <Field label="Percent off" inputMode="numeric" {...typed('percentOff')} />
        ) : (
          <div className="flex gap-3">
            <div className="grow">
              <Field label="Amount off" inputMode="decimal" {...typed('amountOff')} />
            </div>
            <SelectField
              label="Currency"
              value={v.currency}
              options={currencies.map((c) => [c, c.toUpperCase()] as const)}
              onChange={(c) => set('currency', c)}
              error={shown.currency}
            />
          </div>
        )}
        <SelectField
          label="On subscriptions"
          value={v.duration}
          options={[
            ['once', 'First payment only'],
            ['forever', 'Every payment'],
          ]}
          onChange={(duration) => duration && set('duration', duration)}
        />
      </div>

      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-200">Applies to</legend>
        {scopes.map(([scope, text]) => (
          <label key={scope} className="flex items-center gap-2 text-sm text-slate-200">
            <input
              type="radio"
              name="scope"
              checked={v.scope === scope}
              onChange={() => set('scope', scope)}
            />
            {text}
          </label>
        ))}
        {v.scope === 'products' && (
          <div className="flex max-h-48 flex-col gap-1 overflow-y-auto rounded-lg border border-ink-700 p-3">
            {choices.length === 0 && (
              <p className="text-sm text-slate-400">You have no products yet.</p>
            )}
            {choices.map((p) => (
              <label key={p.id} className="flex items-center gap-2 text-sm text-slate-200">
                <input
                  type="checkbox"
                  checked={v.productIds.includes(p.id)}
                  onChange={(e) =>
                    set(
                      'productIds',
                      e.target.checked
                        ? [...v.productIds, p.id]
                        : v.productIds.filter((id) => id !== p.id),
                    )
                  }
                />
                {p.title || p.id}
                {!p.isActive && <span className="text-xs text-slate-400">(not published)</span>}
              </label>
            ))}
          </div>
        )}
        {shown.productIds && <p className="text-sm text-rose-400">{shown.productIds}</p>}
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Starts (optional)" type="datetime-local" {...typed('startsAt')} />
        <Field label="Ends (optional)" type="datetime-local" {...typed('expiresAt')} />
        <Field
          label="Most uses overall (optional)"
          inputMode="numeric"
          {...typed('maxRedemptions')}
        />
        <Field
          label="Most uses per buyer (optional)"
          inputMode="numeric"
          {...typed('maxPerBuyer')}
        />
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-200">
        <input
          type="checkbox"
          checked={v.isActive}
          onChange={(e) => set('isActive', e.target.checked)}
        />
        Active (buyers can use it)
      </label>
      {failed && <FormError error={error} />}
      <div className="flex gap-2">
        <Button type="submit" loading={busy}>
          {coupon ? 'Save changes' : 'Create coupon'}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
