// The orders module's use cases, one per file (docs/architecture.md#api-modules): routes and jobs import them here.
export { previewCoupon } from './coupons.ts';
export { startCheckout, type CheckoutContext, type ReferralLookup } from './checkout.ts';
export { applyPaymentEvent } from './payment-events.ts';
export { processAutoRefunds } from './auto-refunds.ts';
export { ownPurchase, purchaseList, customerPortal } from './purchases.ts';
export { connectAccount, connectAccountCallback, connectPurpose } from './connect.ts';
export { vendorSales } from './vendor-sales.ts';
export { revokeAccess } from './revoke.ts';
export { expireCheckouts } from './expiry.ts';
export { endLapsedSubscriptions, LAPSE_GRACE_HOURS } from './subscriptions.ts';
export { vendorSale } from './vendor-sale.ts';
export { vendorRefund } from './vendor-refund.ts';
export { vendorCustomers } from './customers.ts';
export {
  createVendorCoupon,
  deleteVendorCoupon,
  listVendorCoupons,
  updateVendorCoupon,
} from './vendor-coupons.ts';
