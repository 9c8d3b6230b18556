-- Vendor analytics (issue 19, ADR 043): a daily rollup of the ledger per vendor, item and currency,
-- kept in step by statement triggers on ledger_entries, so every writer (payments, refunds, the demo
-- seed's back-dating) moves it in the same transaction. Reads for a year touch ~365 rows per item
-- instead of every ledger line. Every payment updates its day's row in place (no key column
-- changes), so pages keep room for those updates (fillfactor) and they stay HOT.
CREATE TABLE "vendor_sales_daily" (
	"vendor_id" text NOT NULL,
	"day" date NOT NULL,
	"item_type" text NOT NULL,
	"item_id" text NOT NULL,
	"currency" text NOT NULL,
	"gross" bigint DEFAULT 0 NOT NULL,
	"refunds" bigint DEFAULT 0 NOT NULL,
	"fee" bigint DEFAULT 0 NOT NULL,
	"affiliate" bigint DEFAULT 0 NOT NULL,
	"net" bigint DEFAULT 0 NOT NULL,
	"sales" integer DEFAULT 0 NOT NULL,
	"refund_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "vendor_sales_daily_pkey" PRIMARY KEY ("vendor_id","day","item_id","currency")
) WITH (fillfactor = 70);
--> statement-breakpoint
-- Adds (sign 1) or takes away (sign -1) ledger lines. Lines without a purchase (affiliate payouts) are
-- not a vendor's. gross: charged to buyers; refunds: returned to them; fee, affiliate and net: what
-- the platform, affiliates and the vendor kept (each net of reversals), so gross - refunds = fee +
-- affiliate + net.
CREATE FUNCTION orders_vendor_daily_apply(lines ledger_entries[], sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO vendor_sales_daily AS d (vendor_id, day, item_type, item_id, currency, gross, refunds, fee,
    affiliate, net, sales, refund_count)
  SELECT p.vendor_id, (l.created_at AT TIME ZONE 'UTC')::date, p.item_type,
    coalesce(p.product_id, p.bundle_id), l.currency,
    sign * coalesce(sum(-l.amount) FILTER (WHERE l.entry_type = 'sale'), 0),
    sign * coalesce(sum(l.amount) FILTER (WHERE l.entry_type = 'refund_reversal' AND l.account_type = 'clearing'), 0),
    sign * coalesce(sum(l.amount) FILTER (WHERE l.account_type = 'platform'), 0),
    sign * coalesce(sum(l.amount) FILTER (WHERE l.account_type = 'affiliate'), 0),
    sign * coalesce(sum(l.amount) FILTER (WHERE l.account_type = 'vendor'), 0),
    sign * count(*) FILTER (WHERE l.entry_type = 'sale'),
    sign * count(*) FILTER (WHERE l.entry_type = 'refund_reversal' AND l.account_type = 'clearing')
  FROM unnest(lines) l JOIN purchases p ON p.id = l.purchase_id
  GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (vendor_id, day, item_id, currency) DO UPDATE SET
    gross = d.gross + excluded.gross, refunds = d.refunds + excluded.refunds, fee = d.fee + excluded.fee,
    affiliate = d.affiliate + excluded.affiliate, net = d.net + excluded.net,
    sales = d.sales + excluded.sales, refund_count = d.refund_count + excluded.refund_count
$$;
--> statement-breakpoint
CREATE FUNCTION orders_vendor_daily_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM orders_vendor_daily_apply(array(SELECT n::ledger_entries FROM new_rows n WHERE n.purchase_id IS NOT NULL), 1);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION orders_vendor_daily_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM orders_vendor_daily_apply(array(SELECT o::ledger_entries FROM old_rows o WHERE o.purchase_id IS NOT NULL), -1);
  PERFORM orders_vendor_daily_apply(array(SELECT n::ledger_entries FROM new_rows n WHERE n.purchase_id IS NOT NULL), 1);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION orders_vendor_daily_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM orders_vendor_daily_apply(array(SELECT o::ledger_entries FROM old_rows o WHERE o.purchase_id IS NOT NULL), -1);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_vendor_daily_insert AFTER INSERT ON ledger_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION orders_vendor_daily_on_insert();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_vendor_daily_update AFTER UPDATE ON ledger_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION orders_vendor_daily_on_update();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_vendor_daily_delete AFTER DELETE ON ledger_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION orders_vendor_daily_on_delete();
--> statement-breakpoint
-- What is in the ledger already.
SELECT orders_vendor_daily_apply(array(SELECT l FROM ledger_entries l WHERE l.purchase_id IS NOT NULL), 1);
--> statement-breakpoint
-- The CSV export reads a vendor's payment sets in a date range: the vendor's own line of each set.
CREATE INDEX "ledger_entries_vendor_idx" ON "ledger_entries" USING btree ("account_id","created_at") WHERE "account_type" = 'vendor';
--> statement-breakpoint
-- Product page views (`/p/<id>/<slug>?…`) by product and time, for conversion.
CREATE INDEX "analytics_events_product_view_idx" ON "analytics_events" USING btree ((split_part(split_part("path", '?', 1), '/', 3)),"occurred_at") WHERE "type" = 'page_view' AND "path" LIKE '/p/%';
