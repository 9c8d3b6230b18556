// The orders module's public entry (ARCHITECTURE §2): other modules import this file only.
export { endLapsedSubscriptions, expireCheckouts, processAutoRefunds } from './service.ts';
export { activeAccessTo, type ActiveAccess } from './access.ts';
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
