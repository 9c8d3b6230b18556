import {
  REFUND_REASON_MAX,
  refundProblems,
  vendorSalesMessages,
  type FieldProblems,
} from '@tradeshelf/contract/client';
import type { ApiError, VendorRefundBody, VendorSale } from '@tradeshelf/contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { ConfirmStep } from '../../../components/confirm-step.tsx';
import { Alert, Button, Field, FormError } from '../../../components/ui.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { amountText, money, parseAmount } from '../money-format.ts';

const newKey = () =>
  `refund-${typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`}`;

/**
 * Refund the whole of what is left, or a part of it, with a reason the buyer reads. It asks to confirm
 * first; a retry after a failure keeps the idempotency key, so the same refund is made once.
 * `onRefund` answers whether the refund was made; `error` is the API's answer when it was not.
 */
export function RefundForm({
  sale,
  onRefund,
  error,
}: {
  sale: Pick<VendorSale, 'refundable' | 'pendingRefund' | 'status' | 'subscription'>;
  onRefund: (body: VendorRefundBody, key: string) => Promise<boolean>;
  error: ApiError | null;
}) {
  const [mode, setMode] = useState<'whole' | 'partial'>('whole');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<FieldProblems>({});
  const [failed, setFailed] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ amount: number | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef<string | null>(null);
  const reasonId = useId();
  const left = sale.refundable;

  if (left.amount <= 0) {
    const why =
      sale.pendingRefund.amount > 0
        ? `A refund of ${money(sale.pendingRefund)} is waiting for the payment provider to confirm it.`
        : sale.status === 'refunded'
          ? vendorSalesMessages.refundAlreadyFull
          : 'Nothing is left to refund on this sale.';
    // The sale reloads after a whole refund: what was sent still says so above why nothing is left.
    return (
      <div className="flex flex-col gap-3">
        {done && <Alert tone="success">{done}</Alert>}
        <Alert tone="info">{why}</Alert>
      </div>
    );
  }

  // A changed request is a new refund: a new key.
  const edit = (apply: () => void) => {
    apply();
    key.current = null;
    setConfirming(null);
    setDone(null);
    setFailed(false);
  };

  const check = (e: FormEvent) => {
    e.preventDefault();
    setFailed(false);
    const parsed = mode === 'whole' ? null : parseAmount(amount);
    const found = refundProblems({ amount: parsed, reason });
    if (parsed !== null && !found.amount && parsed > left.amount)
      found.amount = `You can refund at most ${money(left)}: that is what is left of this payment.`;
    setProblems(found);
    if (Object.keys(found).length) return;
    setConfirming({ amount: parsed });
  };

  const confirm = async () => {
    if (!confirming) return;
    key.current ??= newKey();
    setBusy(true);
    const ok = await onRefund({ amount: confirming.amount, reason: reason.trim() }, key.current);
    setBusy(false);
    setConfirming(null);
    if (!ok) {
      setProblems({});
      setFailed(true);
      return;
    }
    const refunded = confirming.amount === null ? left : { ...left, amount: confirming.amount };
    key.current = null;
    setAmount('');
    setReason('');
    setMode('whole');
    setDone(`Refund of ${money(refunded)} sent to the payment provider.`);
  };

  const asked = confirming
    ? confirming.amount === null
      ? left
      : { ...left, amount: confirming.amount }
    : null;
  const shown = failed && error ? { ...error.fields, ...problems } : problems;
  const whole = confirming !== null && (confirming.amount ?? left.amount) >= left.amount;

  return (
    <form onSubmit={check} noValidate className="flex flex-col gap-4" aria-label="Refund">
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-200">How much</legend>
        <label className="flex items-center gap-2 text-sm text-slate-200">
          <input
            type="radio"
            name="refund-mode"
            checked={mode === 'whole'}
            onChange={() => edit(() => setMode('whole'))}
          />
          All that is left ({money(left)})
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-200">
          <input
            type="radio"
            name="refund-mode"
            checked={mode === 'partial'}
            onChange={() => edit(() => setMode('partial'))}
          />
          Part of it
        </label>
      </fieldset>
      {mode === 'partial' && (
        <Field
          label={`Amount (${left.currency.toUpperCase()})`}
          inputMode="decimal"
          placeholder={amountText(Math.floor(left.amount / 2))}
          value={amount}
          onChange={(e) => edit(() => setAmount(e.target.value))}
          error={shown.amount}
          hint={`At most ${money(left)}.`}
        />
      )}
      <TextAreaField
        label="Reason (the buyer is told)"
        rows={3}
        maxLength={REFUND_REASON_MAX + 50}
        value={reason}
        onChange={(text) => edit(() => setReason(text))}
        error={shown.reason}
      />
      {failed && <FormError error={error} />}
      {done && <Alert tone="success">{done}</Alert>}
      {confirming && asked ? (
        <ConfirmStep
          title="Confirm the refund"
          confirmLabel={`Refund ${money(asked)}`}
          busy={busy}
          error={null}
          returnFocusTo={`${reasonId}-submit`}
          onConfirm={() => void confirm()}
          onCancel={() => setConfirming(null)}
        >
          <p>
            Refund {money(asked)} to the buyer?{' '}
            {whole
              ? `This refunds the payment in full and ends their access${sale.subscription ? ' and their subscription' : ''}.`
              : 'They keep their access.'}{' '}
            This cannot be undone.
          </p>
        </ConfirmStep>
      ) : (
        <Button id={`${reasonId}-submit`} type="submit" variant="danger" className="self-start">
          Refund…
        </Button>
      )}
    </form>
  );
}
