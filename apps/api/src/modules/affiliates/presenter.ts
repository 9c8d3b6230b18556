// How the affiliates module's rows reach the API: the contract's shapes, nothing more.
import {
  type AffiliateVendor,
  type Invitation,
  type Payout,
  storefrontPath,
} from '@tradeshelf/contract';
import type { VendorSummary } from '../catalog/index.ts';

const iso = (v: Date | string) => new Date(v).toISOString();

/** Where a referral link points: the vendor's storefront, with the referral id to remember. */
export const shareUrl = (origin: string, vendorUrl: string, refId: string) =>
  `${origin}${storefrontPath(vendorUrl)}?ref=${encodeURIComponent(refId)}`;

export type VendorRow = {
  vendor_id: string;
  ref_id: string | null;
  commission_bps: number;
  cookie_days: number;
  open: boolean;
};

export function vendorEntry(
  row: VendorRow,
  vendor: VendorSummary | undefined,
  origin: string,
): AffiliateVendor {
  const vendorUrl = vendor?.vendorUrl ?? '';
  return {
    vendorId: row.vendor_id,
    vendorUrl,
    name: vendor?.displayName ?? '',
    refId: row.ref_id,
    shareUrl: row.ref_id ? shareUrl(origin, vendorUrl, row.ref_id) : null,
    commissionBps: row.commission_bps,
    cookieDays: row.cookie_days,
    open: row.open,
    joined: row.ref_id !== null,
  };
}

export type InviteRow = {
  id: string;
  ref_id: string;
  vendor_id: string;
  email: string;
  commission_bps: number;
  cookie_days: number;
  status: 'pending' | 'accepted';
  created_at: Date | string;
  expires_at: Date | string;
};

export function invitationView(row: InviteRow, vendor: VendorSummary | undefined): Invitation {
  return {
    id: row.id,
    refId: row.ref_id,
    vendorId: row.vendor_id,
    vendorUrl: vendor?.vendorUrl ?? '',
    vendorName: vendor?.displayName ?? '',
    email: row.email,
    commissionBps: row.commission_bps,
    cookieDays: row.cookie_days,
    status: row.status,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
  };
}

export type PayoutRow = {
  id: string;
  user_id: string;
  provider: string;
  account_id: string;
  amount: number;
  currency: string;
  status: Payout['status'];
  idempotency_key: string;
  transfer_id: string | null;
  failure_reason: string | null;
  attempts: number;
  created_at: Date | string;
  updated_at: Date | string;
};

export function payoutView(row: PayoutRow): Payout {
  return {
    id: row.id,
    amount: { amount: row.amount, currency: row.currency },
    status: row.status,
    failureReason: row.failure_reason,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** "20%" or "12.5%" from basis points. */
