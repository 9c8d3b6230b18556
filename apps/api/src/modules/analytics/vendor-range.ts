// The caller's vendor and the filters of a vendor analytics read, resolved and checked.
import {
  ANALYTICS_DEFAULT_DAYS,
  shiftAnalyticsDate,
  validateAnalyticsRange,
  vendorAnalyticsMessages as m,
  type AnalyticsInterval,
} from '@tradeshelf/contract';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorItems, type VendorItem } from '../catalog/index.ts';

export interface VendorAnalyticsFilters {
  vendorId: string;
  from: string;
  to: string;
  interval: AnalyticsInterval;
  /** A product's or a bundle's id. */
  productId: string | null;
  /** The vendor's products and bundles. */
  products: VendorItem[];
}

const today = (now: Date) => now.toISOString().slice(0, 10);

/**
 * 404 for a product or bundle that is not theirs, 400 with field
 * messages for a range the defaults made wrong (only `from`, after today).
 */
export async function resolveFilters(
  db: Tx,
  vendorId: string,
  query: { from?: string; to?: string; interval: AnalyticsInterval; productId?: string },
  now = new Date(),
): Promise<VendorAnalyticsFilters> {
  const to = query.to ?? today(now);
  const from = query.from ?? shiftAnalyticsDate(to, -(ANALYTICS_DEFAULT_DAYS - 1));
  const fields = validateAnalyticsRange(from, to);
  if (fields.from || fields.to)
    throw new AppError('validation_failed', (fields.from ?? fields.to)!, fields);
  const products = await vendorItems(db, vendorId);
  const productId = query.productId ?? null;
  if (productId && !products.some((p) => p.id === productId))
    throw new AppError('not_found', m.productNotFound);
  return { vendorId, from, to, interval: query.interval, productId, products };
}
