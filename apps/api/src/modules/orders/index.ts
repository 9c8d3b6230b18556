// The orders module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { endLapsedSubscriptions, expireCheckouts, processAutoRefunds } from './service.ts';
export { retryVendorRefunds } from './vendor-refund-retry.ts';
export { activeAccessTo, type ActiveAccess } from './access.ts';
export { currentPlan, type CurrentPlan } from './plans.ts';
export {
  affiliateBalances,
  affiliateEarnings,
  affiliateSaleCounts,
  affiliateSales,
  recordAffiliatePayout,
  returnAffiliatePayout,
  type AffiliateBalance,
  type AffiliateSale,
  type PayoutEntry,
} from './affiliate-ledger.ts';
export { vendorAffiliateTotals, type VendorAffiliateTotals } from './vendor-affiliate-totals.ts';
export {
  vendorLedgerItems,
  vendorLedgerSeries,
  vendorLedgerSets,
  type LedgerFigures,
  type VendorLedgerRange,
  type VendorLedgerSet,
} from './vendor-ledger.ts';
export { purchaseTerms, type PurchaseTerms } from './purchase-terms.ts';
export { vendorSaleSummary } from './vendor-sale.ts';
export {
  cancelEndedSubscriptions,
  deletionBlockers,
  endBuyerAccess,
  orderPages,
  ledgerPages,
  vendorSalesExport,
} from './account-data.ts';
