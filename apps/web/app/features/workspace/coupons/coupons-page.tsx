import type { CouponInput, CouponState, VendorCoupon } from '@tradeshelf/contract';
import { useState } from 'react';
import { ConfirmStep } from '../../../components/confirm-step.tsx';
import { useToast } from '../../../components/toasts.tsx';
import { Alert, Button } from '../../../components/ui.tsx';
import { Screen } from '../../../components/screen.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useAction, useRead } from '../request.ts';
import { badgeClass, exactMoney, type Tone } from '../money-format.ts';
import { Pager, useCursorPages } from '../../../components/list-pager.tsx';
import {
  createVendorCoupon,
  deleteVendorCoupon,
  fetchVendorCoupons,
  updateVendorCoupon,
  type CouponsPage,
} from './api.ts';
import { CouponForm } from './coupon-form.tsx';

const stateBadge: Record<CouponState, { label: string; tone: Tone }> = {
  active: { label: 'Active', tone: 'good' },
  scheduled: { label: 'Scheduled', tone: 'warn' },
  expired: { label: 'Expired', tone: 'muted' },
  used_up: { label: 'Used up', tone: 'muted' },
  inactive: { label: 'Inactive', tone: 'bad' },
};

const discountOf = (c: VendorCoupon) =>
  c.type === 'percent'
    ? `${c.percentOff}% off`
    : c.amountOff
      ? `${exactMoney(c.amountOff)} off`
      : '';

function usesOf(c: VendorCoupon): string {
  const n = c.redemptions;
  const times = n === 1 ? 'once' : `${n} times`;
  return c.maxRedemptions !== null ? `used ${n} of ${c.maxRedemptions}` : `used ${times}`;
}

function windowOf(c: VendorCoupon): string {
  if (c.startsAt && c.expiresAt)
    return `${formatDateTime(c.startsAt)} – ${formatDateTime(c.expiresAt)}`;
  if (c.startsAt) return `From ${formatDateTime(c.startsAt)}`;
  if (c.expiresAt) return `Until ${formatDateTime(c.expiresAt)}`;
  return 'No end';
}

export function CouponsPage() {
  const pages = useCursorPages();
  const read = useRead<{ cursor?: string | undefined }, CouponsPage>(fetchVendorCoupons, {
    cursor: pages.cursor,
  });
  const create = useAction<CouponInput, VendorCoupon>(createVendorCoupon);
  const update = useAction<{ id: string; body: CouponInput }, VendorCoupon>(updateVendorCoupon);
  const remove = useAction<
    string,
    { deleted: boolean; coupon: VendorCoupon | null; message: string }
  >(deleteVendorCoupon);
  const toast = useToast();
  // null: no form; 'new', or the coupon being edited.
  const [editing, setEditing] = useState<VendorCoupon | 'new' | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);

  const save = async (body: CouponInput) => {
    const saved =
      editing && editing !== 'new'
        ? await update.run({ id: editing.id, body })
        : await create.run(body);
    if (!saved) return false;
    toast(editing === 'new' ? `Coupon ${saved.code} created.` : `Coupon ${saved.code} saved.`);
    setEditing(null);
    void read.reload();
    return true;
  };

  const drop = async (id: string) => {
    const done = await remove.run(id);
    setConfirmDelete(null);
    if (done) {
      toast(done.message);
      void read.reload();
    }
  };

  const coupons = read.data?.coupons ?? [];
  const action = editing === 'new' ? create : update;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-white">Coupons</h1>
        {editing === null && (
          <Button type="button" onClick={() => setEditing('new')}>
            New coupon
          </Button>
        )}
      </div>
      {editing !== null && (
        <CouponForm
          key={editing === 'new' ? 'new' : editing.id}
          coupon={editing === 'new' ? null : editing}
          products={read.data?.products ?? []}
          onSave={save}
          onCancel={() => setEditing(null)}
          error={action.error}
          busy={action.busy}
        />
      )}
      {remove.error && <Alert>{remove.error.error}</Alert>}
      <Screen
        read={read}
        onRetry={() => void read.reload()}
        loading="Loading coupons…"
        isEmpty={() => !coupons.length}
        empty={
          <Alert tone="info">No coupons yet. Create one to offer a discount at checkout.</Alert>
        }
      >
        {() => (
          <ul className="flex flex-col gap-3">
            {coupons.map((c) => {
              const badge = stateBadge[c.state];
              return (
                <li
                  key={c.id}
                  className="flex flex-col gap-2 rounded-2xl border border-ink-700 bg-ink-900 p-4 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="flex flex-col gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-mono text-lg font-bold text-white">{c.code}</span>
                      <span className={badgeClass(badge.tone)}>{badge.label}</span>
                    </div>
                    <p className="text-sm text-slate-300">
                      {discountOf(c)}
                      {c.duration === 'forever' ? ' on every payment' : ''} ·{' '}
                      {c.scope === 'all'
                        ? 'all products'
                        : c.products.map((p) => p.title).join(', ')}
                    </p>
                    <p className="text-xs text-slate-400">
                      {windowOf(c)} · {usesOf(c)}
                      {c.maxPerBuyer !== null ? ` · ${c.maxPerBuyer} per buyer` : ''}
                    </p>
                  </div>
                  {confirmDelete === c.id ? (
                    <ConfirmStep
                      compact
                      title={`${c.redemptions > 0 ? 'Deactivate' : 'Delete'} ${c.code}?`}
                      confirmLabel={c.redemptions > 0 ? 'Deactivate' : 'Delete'}
                      cancelLabel="Keep it"
                      busy={remove.busy}
                      error={null}
                      returnFocusTo={`coupon-drop-${c.id}`}
                      onConfirm={() => void drop(c.id)}
                      onCancel={() => setConfirmDelete(null)}
                    >
                      {c.redemptions > 0 && (
                        <p>
                          It has been used, so it will be deactivated and kept for your records.
                        </p>
                      )}
                    </ConfirmStep>
                  ) : (
                    <div className="flex gap-2">
                      <Button
                        type="button"
                        variant="ghost"
                        onClick={() => setEditing(c)}
                        aria-label={`Edit ${c.code}`}
                      >
                        Edit
                      </Button>
                      {c.isActive || c.redemptions === 0 ? (
                        <Button
                          type="button"
                          variant="ghost"
                          id={`coupon-drop-${c.id}`}
                          onClick={() => setConfirmDelete(c.id)}
                          aria-label={`${c.redemptions > 0 ? 'Deactivate' : 'Delete'} ${c.code}`}
                        >
                          {c.redemptions > 0 ? 'Deactivate' : 'Delete'}
                        </Button>
                      ) : null}
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Screen>
      <Pager pages={pages} nextCursor={read.data?.nextCursor} busy={read.status === 'loading'} />
    </div>
  );
}
