import { vendorEndpoints } from '@tradeshelf/contract/client';
import type { CouponInput, VendorCoupon } from '@tradeshelf/contract';
import { requestThunk } from '../../../lib/thunk.ts';

export interface CouponsPage {
  coupons: VendorCoupon[];
  nextCursor: string | null;
  products: Array<{ id: string; title: string; isActive: boolean }>;
}

export const fetchVendorCoupons = requestThunk<{ cursor?: string | undefined }, CouponsPage>(
  'vendorCoupons/list',
  ({ cursor }, { api }) =>
    api.call(vendorEndpoints.vendorCoupons, {
      query: { limit: 20, ...(cursor ? { cursor } : {}) },
    }),
);

export const createVendorCoupon = requestThunk<CouponInput, VendorCoupon>(
  'vendorCoupons/create',
  async (body, { api }) => (await api.call(vendorEndpoints.createVendorCoupon, { body })).coupon,
);

export const updateVendorCoupon = requestThunk<{ id: string; body: CouponInput }, VendorCoupon>(
  'vendorCoupons/update',
  async ({ id, body }, { api }) =>
    (await api.call(vendorEndpoints.updateVendorCoupon, { params: { id }, body })).coupon,
);

export const deleteVendorCoupon = requestThunk<
  string,
  { deleted: boolean; coupon: VendorCoupon | null; message: string }
>('vendorCoupons/delete', (id, { api }) =>
  api.call(vendorEndpoints.deleteVendorCoupon, { params: { id } }),
);
