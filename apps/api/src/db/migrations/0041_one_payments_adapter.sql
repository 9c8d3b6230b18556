-- One payments adapter (ADR 055): the Stripe adapter, against the app's own Stripe sandbox outside
-- production, replaces the second (sandbox) adapter. Its tables go. History it wrote names the
-- provider that now serves it; customers and connected accounts it alone knew are forgotten (made
-- again at the next checkout or payouts set-up), but for the demo affiliate's, which the demo seed
-- now holds in the Stripe sandbox under the same id.
DROP TABLE IF EXISTS "sandbox_sessions" CASCADE;--> statement-breakpoint
DROP TABLE IF EXISTS "sandbox_events" CASCADE;--> statement-breakpoint
DROP TABLE IF EXISTS "sandbox_transfers" CASCADE;--> statement-breakpoint
DROP TABLE IF EXISTS "sandbox_connect_accounts" CASCADE;--> statement-breakpoint
UPDATE "purchases" SET "provider" = 'stripe' WHERE "provider" = 'sandbox';--> statement-breakpoint
UPDATE "payment_events" SET "provider" = 'stripe' WHERE "provider" = 'sandbox';--> statement-breakpoint
UPDATE "affiliate_payouts" SET "provider" = 'stripe' WHERE "provider" = 'sandbox';--> statement-breakpoint
DELETE FROM "payment_customers" WHERE "provider" = 'sandbox';--> statement-breakpoint
DELETE FROM "vendor_payment_accounts" WHERE "provider" = 'sandbox';--> statement-breakpoint
UPDATE "affiliate_payout_accounts" SET "provider" = 'stripe'
  WHERE "provider" = 'sandbox' AND "account_id" = 'acct_sbx_demo_affiliate';--> statement-breakpoint
DELETE FROM "affiliate_payout_accounts" WHERE "provider" = 'sandbox';
