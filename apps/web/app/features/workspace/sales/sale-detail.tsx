import { REVOKE_REASON_MAX, ordersMessages } from '@tradeshelf/contract/client';
import type {
  Money,
  VendorRefund,
  VendorRefundBody,
  VendorSale,
  VendorSaleDetail,
} from '@tradeshelf/contract';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ConfirmStep } from '../../../components/confirm-step.tsx';
import { useToast } from '../../../components/toasts.tsx';
import { Alert, Button, FormError } from '../../../components/ui.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useAction, useRead } from '../request.ts';
import { fetchSaleInvoicePdf, fetchVendorSale, refundVendorSale, revokeVendorSale } from './api.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { badgeClass, exactMoney, saleStatus } from '../money-format.ts';
import { RefundForm } from './refund-form.tsx';
import { BackLink, Loading } from '../../../components/screen.tsx';
import { PanelTable } from '../../../components/list-table.tsx';

const panel = 'flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-5 sm:p-6';

function Figure({ label, value, hint }: { label: string; value: Money; hint?: string }) {
  return (
    <div className="rounded-xl border border-ink-700 bg-ink-950/40 p-4">
      <dt className="text-xs font-medium tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-1 text-lg font-bold text-white tabular-nums">{exactMoney(value)}</dd>
      {hint && <dd className="mt-1 text-xs text-slate-400">{hint}</dd>}
    </div>
  );
}

const paymentColumns = [
  { label: 'Payment' },
  { label: 'Charged', align: 'right' },
  { label: 'Refunded', align: 'right' },
] as const;

const refundStatus = {
  pending: 'Waiting for the provider',
  succeeded: 'Refunded',
  failed: 'Refused',
};

function Revoke({ sale, onDone }: { sale: VendorSaleDetail; onDone: () => void }) {
  const revoke = useAction<{ id: string; reason: string }, VendorSale>(revokeVendorSale);
  const toast = useToast();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const id = useId();
  if (sale.revoked)
    return (
      <Alert tone="info">
        Access ended on {formatDateTime(sale.revoked.at)}. Reason: {sale.revoked.reason}
      </Alert>
    );
  if (sale.status !== 'paid')
    return <p className="text-sm text-slate-400">{ordersMessages.revokeNotPaid}</p>;
  const check = (e: FormEvent) => {
    e.preventDefault();
    const r = reason.trim();
    const found = !r
      ? ordersMessages.revokeReasonRequired
      : r.length > REVOKE_REASON_MAX
        ? ordersMessages.revokeReasonTooLong
        : null;
    setProblem(found);
    if (!found) setConfirming(true);
  };
  const confirm = async () => {
    const done = await revoke.run({ id: sale.id, reason: reason.trim() });
    setConfirming(false);
    if (done) {
      toast('Access revoked.');
      onDone();
    }
  };
  const error = problem ?? revoke.error?.fields?.reason ?? null;
  return (
    <form onSubmit={check} noValidate className="flex flex-col gap-3" aria-label="Revoke access">
      <TextAreaField
        label="Reason (the buyer is told)"
        rows={2}
        value={reason}
        onChange={(text) => {
          setReason(text);
          setConfirming(false);
        }}
        error={error}
      />
      <FormError error={revoke.error} />
      {confirming ? (
        <ConfirmStep
          title="Confirm revoking access"
          confirmLabel="Revoke access"
          busy={revoke.busy}
          error={null}
          returnFocusTo={`${id}-submit`}
          onConfirm={() => void confirm()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            End this buyer’s access now? No money is refunded
            {sale.subscription ? '; their subscription is cancelled' : ''}.
          </p>
        </ConfirmStep>
      ) : (
        <Button id={`${id}-submit`} type="submit" variant="ghost" className="self-start">
          Revoke access…
        </Button>
      )}
    </form>
  );
}

/** The seller's copy of the invoice as PDF (ADR 060). */
function InvoiceDownload({ id, name }: { id: string; name: string }) {
  const invoice = useAction<string, Blob>(fetchSaleInvoicePdf);
  const download = async () => {
    const file = await invoice.run(id);
    if (file) saveFile(file, name);
  };
  return (
    <div className="flex flex-col gap-2">
      <Button
        type="button"
        variant="ghost"
        loading={invoice.busy}
        onClick={() => void download()}
        className="self-start"
      >
        Download invoice (PDF)
      </Button>
      {invoice.error && <Alert>{invoice.error.error}</Alert>}
    </div>
  );
}

export function SaleDetail({ id }: { id: string }) {
  const read = useRead<string, VendorSaleDetail>(fetchVendorSale, id);
  const refund = useAction<
    { id: string; body: VendorRefundBody; key: string },
    { sale: VendorSaleDetail; refund: VendorRefund }
  >(refundVendorSale);
  const sale = read.data;
  if (read.status === 'failure' && !sale)
    return (
      <Alert>
        {read.error?.error ?? 'We could not load this sale.'}{' '}
        <Link to="/vendor/sales" className="underline">
          Back to sales
        </Link>
      </Alert>
    );
  if (!sale) return <Loading label="Loading the sale…" size="page" />;
  const st = saleStatus(sale);
  const onRefund = async (body: VendorRefundBody, key: string): Promise<boolean> => {
    const done = await refund.run({ id: sale.id, body, key });
    if (done) read.set(done.sale);
    return done !== null;
  };
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <BackLink to="/vendor/sales">All sales</BackLink>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold text-white">{sale.item.title}</h1>
          <span className={badgeClass(st.tone)}>{st.label}</span>
        </div>
        <p className="text-sm text-slate-400">
          {sale.buyer.username ? `${sale.buyer.username} · ` : ''}
          {sale.buyer.email} · paid {sale.paidAt ? formatDateTime(sale.paidAt) : '—'}
          {sale.receiptNumber ? ` · receipt ${sale.receiptNumber}` : ''}
          {sale.coupon ? ` · coupon ${sale.coupon.code}` : ''}
        </p>
        <InvoiceDownload id={sale.id} name={`invoice-${sale.receiptNumber ?? sale.id}.pdf`} />
      </div>

      <section className={panel} aria-labelledby="money-heading">
        <h2 id="money-heading" className="text-lg font-semibold text-white">
          Money
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          <Figure label="Gross" value={sale.ledger.gross} />
          <Figure label="Refunded" value={sale.ledger.refunded} />
          <Figure label="Pending refund" value={sale.pendingRefund} />
          <Figure label="Platform fee" value={sale.ledger.fees} />
          <Figure label="Affiliate" value={sale.ledger.affiliate} />
          <Figure label="Your net" value={sale.ledger.net} />
        </dl>
        {sale.payments.length > 0 && (
          <PanelTable caption="Payments" columns={paymentColumns}>
            {sale.payments.map((p) => (
              <tr key={p.ref}>
                <td className="py-2">{formatDateTime(p.at)}</td>
                <td className="py-2 text-right tabular-nums">{exactMoney(p.amount)}</td>
                <td className="py-2 text-right tabular-nums">{exactMoney(p.refunded)}</td>
              </tr>
            ))}
          </PanelTable>
        )}
      </section>

      <section className={panel} aria-labelledby="refund-heading">
        <h2 id="refund-heading" className="text-lg font-semibold text-white">
          Refund
        </h2>
        {sale.refunds.length > 0 && (
          <ul className="flex flex-col gap-2 text-sm">
            {sale.refunds.map((r) => (
              <li key={r.id} className="rounded-lg border border-ink-700 px-3 py-2 text-slate-200">
                <span className="font-semibold tabular-nums">{exactMoney(r.amount)}</span> ·{' '}
                {refundStatus[r.status]} · {formatDateTime(r.requestedAt)} · “{r.reason}”
                {r.failure && <span className="block text-rose-300">{r.failure}</span>}
              </li>
            ))}
          </ul>
        )}
        <RefundForm sale={sale} onRefund={onRefund} error={refund.error} />
      </section>

      <section className={panel} aria-labelledby="access-heading">
        <h2 id="access-heading" className="text-lg font-semibold text-white">
          Access
        </h2>
        <Revoke sale={sale} onDone={() => void read.reload()} />
      </section>
    </div>
  );
}
