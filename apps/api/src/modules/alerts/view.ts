// An alert as stored and as the contract shows it: one reading for publishing, the feeds, the live
// stream, the e-mails and the Discord posts.
import { alertSides, type Alert, type AlertSide, type AlertSource } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';

export interface AlertRow extends Record<string, unknown> {
  id: string;
  product_id: string;
  symbol: string | null;
  side: AlertSide | null;
  price: string | null;
  text: string;
  image_url: string | null;
  source: AlertSource;
  recipients: number;
  created_at: Date | string;
}

/** An alert's columns as `alertView` reads them (`a.`-prefixed where a query joins). */
export const ALERT_COLUMNS =
  'id, product_id, symbol, side, price, text, image_url, source, recipients, created_at';
export const alertColumns = sql.raw(ALERT_COLUMNS);
/** The same columns of the alert `a` in a join. */
export const joinedAlertColumns = sql.raw(
  ALERT_COLUMNS.split(', ')
    .map((c) => `a.${c}`)
    .join(', '),
);

export const alertView = (r: AlertRow): Alert => ({
  id: r.id,
  productId: r.product_id,
  symbol: r.symbol,
  side: r.side && (alertSides as readonly string[]).includes(r.side) ? r.side : null,
  price: r.price,
  text: r.text,
  imageUrl: r.image_url ?? null,
  source: r.source,
  createdAt: new Date(r.created_at).toISOString(),
});
