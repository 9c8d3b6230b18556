-- The vendor's storefront and payouts (issue 19, ADR 041). A storefront's earlier addresses redirect
-- to its current one; each is held by that vendor for good, so an old link never leads to someone else.
CREATE TABLE "vendor_url_aliases" (
	"url" text NOT NULL,
	"vendor_id" text NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_url_aliases_url_key" ON "vendor_url_aliases" USING btree (lower("url"));--> statement-breakpoint
CREATE INDEX "vendor_url_aliases_vendor_idx" ON "vendor_url_aliases" USING btree ("vendor_id");--> statement-breakpoint
-- The payment sandbox's connected accounts: what Stripe would hold while a vendor onboards.
CREATE TABLE "sandbox_connect_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"business_name" text,
	"return_url" text DEFAULT '' NOT NULL,
	"refresh_url" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_connect_accounts_state" CHECK ("state" IN ('new', 'pending_verification', 'active', 'restricted'))
);
