-- The affiliate programme (issue 18, ADR 037): programme terms, invitations, clicks, payout accounts
-- and payouts. Payout entries in orders' ledger have no purchase: money leaves through a transfer.
ALTER TABLE "ledger_entries" ALTER COLUMN "purchase_id" DROP NOT NULL;--> statement-breakpoint
-- One set per transfer reference, as the purchase key gives one set per payment.
CREATE UNIQUE INDEX "ledger_entries_transfer_entry_key" ON "ledger_entries" USING btree ("payment_ref","entry_type","account_type") WHERE "purchase_id" IS NULL;--> statement-breakpoint
CREATE INDEX "ledger_entries_affiliate_idx" ON "ledger_entries" USING btree ("account_id","created_at") WHERE "account_type" = 'affiliate';--> statement-breakpoint
CREATE INDEX "purchases_affiliate_created_idx" ON "purchases" USING btree ("affiliate_user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "affiliate_user_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "referral_links" ADD COLUMN "cookie_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
CREATE INDEX "referral_links_user_idx" ON "referral_links" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "affiliate_programmes" (
	"vendor_id" text PRIMARY KEY NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"open" boolean DEFAULT true NOT NULL,
	"commission_bps" integer DEFAULT 2000 NOT NULL,
	"cookie_days" integer DEFAULT 30 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliate_programmes_terms" CHECK ("commission_bps" BETWEEN 0 AND 9000 AND "cookie_days" BETWEEN 1 AND 365)
);--> statement-breakpoint
CREATE TABLE "affiliate_invites" (
	"id" text PRIMARY KEY NOT NULL,
	"vendor_id" text NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"email" text NOT NULL,
	"ref_id" text NOT NULL,
	"commission_bps" integer NOT NULL,
	"cookie_days" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"invited_by" text REFERENCES "users"("id") ON DELETE set null,
	"accepted_by" text REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "affiliate_invites_status" CHECK ("status" IN ('pending', 'accepted'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "affiliate_invites_ref_key" ON "affiliate_invites" USING btree ("ref_id");--> statement-breakpoint
CREATE UNIQUE INDEX "affiliate_invites_pending_key" ON "affiliate_invites" USING btree ("vendor_id",lower("email")) WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX "affiliate_invites_email_idx" ON "affiliate_invites" USING btree (lower("email")) WHERE "status" = 'pending';--> statement-breakpoint
CREATE TABLE "affiliate_clicks" (
	"ref_id" text NOT NULL REFERENCES "referral_links"("ref_id") ON DELETE cascade,
	"visitor" text NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliate_clicks_pk" PRIMARY KEY ("ref_id","day","visitor")
);--> statement-breakpoint
CREATE TABLE "affiliate_payout_accounts" (
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"provider" text NOT NULL,
	"account_id" text NOT NULL,
	"payouts_enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliate_payout_accounts_pk" PRIMARY KEY ("user_id","provider")
);--> statement-breakpoint
CREATE TABLE "affiliate_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE restrict,
	"provider" text NOT NULL,
	"account_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"idempotency_key" text NOT NULL,
	"transfer_id" text,
	"failure_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliate_payouts_amount" CHECK ("amount" > 0),
	CONSTRAINT "affiliate_payouts_status" CHECK ("status" IN ('requested', 'paid', 'failed', 'returned'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "affiliate_payouts_idempotency_key" ON "affiliate_payouts" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "affiliate_payouts_user_created_idx" ON "affiliate_payouts" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "affiliate_payouts_transfer_idx" ON "affiliate_payouts" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "affiliate_payouts_due_idx" ON "affiliate_payouts" USING btree ("next_attempt_at") WHERE "status" = 'requested';--> statement-breakpoint
-- Local and sandbox only: days the hold clock runs ahead (the test clock); production ignores it.
CREATE TABLE "affiliate_clock" (
	"id" integer PRIMARY KEY NOT NULL DEFAULT 1,
	"offset_days" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliate_clock_one_row" CHECK ("id" = 1)
);--> statement-breakpoint
-- The payment sandbox's transfers (what Stripe would hold), failed or reversed by hand.
CREATE TABLE "sandbox_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"account_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'paid' NOT NULL,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_transfers_idempotency_key" ON "sandbox_transfers" USING btree ("idempotency_key");
