// Use case: a vendor's payments and refunds in a range as CSV (ADR 043).
import {
  ANALYTICS_EXPORT_MAX_ROWS,
  vendorAnalyticsMessages as m,
  type AnalyticsInterval,
  type VendorAnalyticsQuery,
} from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { itemSummaries } from '../catalog/index.ts';
import { vendorLedgerSets } from '../orders/index.ts';
import * as users from '../users/index.ts';
import { csvLines, csvText, majorUnits } from './csv.ts';
import { resolveFilters } from './vendor-range.ts';

export const EXPORT_HEADER = [
  'date',
  'type',
  'purchase_id',
  'product',
  'product_id',
  'buyer_email',
  'buyer_username',
  'gross',
  'fee',
  'affiliate',
  'net',
  'currency',
  'status',
];

export async function vendorAnalyticsExport(
  deps: AppDeps,
  vendorId: string,
  query: VendorAnalyticsQuery & { interval: AnalyticsInterval },
): Promise<{ filename: string; csv: string }> {
  const db = deps.database.db;
  const f = await resolveFilters(db, vendorId, query);
  const sets = await vendorLedgerSets(
    db,
    { vendorId: f.vendorId, from: f.from, to: f.to, itemId: f.productId },
    ANALYTICS_EXPORT_MAX_ROWS + 1,
  );
  if (sets.length > ANALYTICS_EXPORT_MAX_ROWS)
    throw new AppError('business_rule', m.exportTooLarge);
  const items = await itemSummaries(
    db,
    [...new Map(sets.map((s) => [`${s.itemType}:${s.itemId}`, s])).values()].map((s) => ({
      type: s.itemType,
      id: s.itemId,
    })),
  );
  const productTitle = new Map(f.products.map((p) => [p.id, p.title]));
  // What the vendor's sales screen shows of a buyer: e-mail and username, nothing else.
  const contacts = await users.contactsOf(db, [...new Set(sets.map((s) => s.buyerId))]);
  const rows = sets.map((s) => {
    const buyer = contacts.get(s.buyerId);
    return [
      s.at.toISOString(),
      s.kind,
      csvText(s.purchaseId),
      csvText(items.get(`${s.itemType}:${s.itemId}`)?.title ?? productTitle.get(s.itemId) ?? ''),
      csvText(s.itemId),
      csvText(buyer?.email),
      csvText(buyer?.username),
      majorUnits(s.gross, s.currency),
      majorUnits(s.fee, s.currency),
      majorUnits(s.affiliate, s.currency),
      majorUnits(s.net, s.currency),
      csvText(s.currency),
      csvText(s.status),
    ];
  });
  const suffix = f.productId ? `-${f.productId.replace(/[^\w-]/g, '')}` : '';
  return {
    filename: `sales-${f.from}-to-${f.to}${suffix}.csv`,
    // A byte-order mark, so spreadsheets read the file as UTF-8.
    csv: '\ufeff' + csvLines([EXPORT_HEADER, ...rows]),
  };
}
