// Use case: a vendor's analytics (ADR 043): money from the ledger's daily rollup (orders), views
// from the page-view events (this module), titles from the catalog.
import {
  ANALYTICS_TOP_PRODUCTS,
  shiftAnalyticsDate,
  type AnalyticsInterval,
  type AnalyticsPoint,
  type Conversion,
  type TopProduct,
  type VendorAnalytics,
  type VendorAnalyticsQuery,
} from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { itemSummaries } from '../catalog/index.ts';
import { vendorLedgerItems, vendorLedgerSeries, type LedgerFigures } from '../orders/index.ts';
import { productViews } from './product-views.ts';
import { resolveFilters } from './vendor-range.ts';

const zero = (): LedgerFigures => ({
  gross: 0,
  refunds: 0,
  fee: 0,
  affiliate: 0,
  net: 0,
  sales: 0,
  refundCount: 0,
});

const figuresOf = (f: LedgerFigures): LedgerFigures => ({
  gross: f.gross,
  refunds: f.refunds,
  fee: f.fee,
  affiliate: f.affiliate,
  net: f.net,
  sales: f.sales,
  refundCount: f.refundCount,
});

function add(into: LedgerFigures, f: LedgerFigures): void {
  into.gross += f.gross;
  into.refunds += f.refunds;
  into.fee += f.fee;
  into.affiliate += f.affiliate;
  into.net += f.net;
  into.sales += f.sales;
  into.refundCount += f.refundCount;
}

/** The first day of the bucket holding `day` (weeks start on Monday, as PostgreSQL's). */
export function bucketStart(day: string, interval: AnalyticsInterval): string {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return shiftAnalyticsDate(day, -weekday);
}

/** Every bucket's first day from `from`'s bucket to `to`'s, oldest first. */
export function bucketsOf(from: string, to: string, interval: AnalyticsInterval): string[] {
  const out: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  let at = bucketStart(from, interval);
  // Compared as times: past 9999-12-31 the ISO text (`+010000-…`) sorts before `to` (issue 26).
  while (Date.parse(`${at}T00:00:00Z`) <= end) {
    out.push(at);
    if (interval === 'day') at = shiftAnalyticsDate(at, 1);
    else if (interval === 'week') at = shiftAnalyticsDate(at, 7);
    else {
      const d = new Date(`${at}T00:00:00Z`);
      d.setUTCMonth(d.getUTCMonth() + 1);
      at = d.toISOString().slice(0, 10);
    }
  }
  return out;
}

export async function vendorAnalytics(
  deps: AppDeps,
  vendorId: string,
  query: VendorAnalyticsQuery & { interval: AnalyticsInterval },
): Promise<VendorAnalytics> {
  const db = deps.database.db;
  const f = await resolveFilters(db, vendorId, query);
  const range = { vendorId: f.vendorId, from: f.from, to: f.to, itemId: f.productId };
  // Conversion is per product page; bundles are in the money figures and top lists, not here.
  const productIds = f.products
    .filter((p) => p.type === 'product' && (!f.productId || p.id === f.productId))
    .map((p) => p.id);
  const [buckets, items, views] = await Promise.all([
    vendorLedgerSeries(db, range, f.interval),
    vendorLedgerItems(db, range),
    productViews(db, productIds, f.from, f.to),
  ]);

  // Totals per currency, the largest gross first; a series per currency with every bucket present.
  const totals = new Map<string, LedgerFigures>();
  for (const i of items) {
    if (!totals.has(i.currency)) totals.set(i.currency, zero());
    add(totals.get(i.currency)!, i);
  }
  const currencies = [...totals.entries()]
    .sort((a, b) => b[1].gross - a[1].gross || a[0].localeCompare(b[0]))
    .map(([c]) => c);
  const periods = bucketsOf(f.from, f.to, f.interval);
  const series = currencies.map((currency) => {
    const byPeriod = new Map(
      buckets.filter((b) => b.currency === currency).map((b) => [b.period, b]),
    );
    const points: AnalyticsPoint[] = periods.map((period) => {
      const b = byPeriod.get(period);
      return { period, ...zero(), ...(b ? figuresOf(b) : {}) };
    });
    return { currency, points };
  });

  const titles = await itemSummaries(
    db,
    items.map((i) => ({ type: i.itemType, id: i.itemId })),
  );
  const productTitle = new Map(f.products.map((p) => [p.id, p.title]));
  const top: TopProduct[] = items.map((i) => ({
    itemType: i.itemType,
    itemId: i.itemId,
    title: titles.get(`${i.itemType}:${i.itemId}`)?.title ?? productTitle.get(i.itemId) ?? i.itemId,
    currency: i.currency,
    gross: i.gross,
    net: i.net,
    sales: i.sales,
  }));
  const byTitle = (a: TopProduct, b: TopProduct) => a.title.localeCompare(b.title);

  // Conversion: products with views or sales in the range.
  const salesOf = new Map<string, number>();
  for (const i of items)
    if (i.itemType === 'product') salesOf.set(i.itemId, (salesOf.get(i.itemId) ?? 0) + i.sales);
  const conversion: Conversion[] = productIds
    .filter((id) => (views.get(id) ?? 0) > 0 || (salesOf.get(id) ?? 0) > 0)
    .map((id) => {
      const v = views.get(id) ?? 0;
      const s = salesOf.get(id) ?? 0;
      return {
        productId: id,
        title: productTitle.get(id) ?? id,
        views: v,
        sales: s,
        rate: v > 0 ? s / v : null,
      };
    })
    .sort((a, b) => b.views - a.views || b.sales - a.sales || a.title.localeCompare(b.title));

  return {
    range: { from: f.from, to: f.to, interval: f.interval, productId: f.productId },
    series,
    totals: currencies.map((currency) => ({ currency, ...totals.get(currency)! })),
    topProducts: {
      byNet: [...top]
        .filter((t) => t.net !== 0 || t.sales > 0)
        .sort((a, b) => b.net - a.net || byTitle(a, b))
        .slice(0, ANALYTICS_TOP_PRODUCTS),
      bySales: [...top]
        .filter((t) => t.sales > 0)
        .sort((a, b) => b.sales - a.sales || b.net - a.net || byTitle(a, b))
        .slice(0, ANALYTICS_TOP_PRODUCTS),
    },
    conversion,
    products: f.products.map((p) => ({ id: p.id, title: p.title, type: p.type })),
  };
}
