-- Vendor refunds, coupon scope and limits (issue 19, ADR 042).
-- A vendor's refund, recorded before the provider is asked: the row is the idempotency record and,
-- while pending, holds its amount so concurrent refunds cannot exceed what is left.
CREATE TABLE "vendor_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"purchase_id" text NOT NULL REFERENCES "purchases"("id") ON DELETE restrict,
	"vendor_id" text NOT NULL REFERENCES "vendors"("id") ON DELETE restrict,
	"payment_ref" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"target_total" integer NOT NULL,
	"reason" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure" text,
	"requested_by" text REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"attempts" integer DEFAULT 1 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() + interval '5 minutes' NOT NULL,
	CONSTRAINT "vendor_refunds_amount_positive" CHECK ("amount" > 0),
	CONSTRAINT "vendor_refunds_status_check" CHECK ("status" in ('pending', 'succeeded', 'failed'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_refunds_idempotency_key" ON "vendor_refunds" USING btree ("vendor_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "vendor_refunds_purchase_idx" ON "vendor_refunds" USING btree ("purchase_id","created_at");--> statement-breakpoint
-- The retry job's scan: refunds the provider has not confirmed, by when to ask again.
CREATE INDEX "vendor_refunds_due_idx" ON "vendor_refunds" USING btree ("next_attempt_at") WHERE "status" = 'pending';--> statement-breakpoint
-- Coupons: a start, a limit per buyer, and a scope of several products.
ALTER TABLE "coupons" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "max_per_buyer" integer;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE TABLE "coupon_products" (
	"coupon_id" text NOT NULL REFERENCES "coupons"("id") ON DELETE cascade,
	"product_id" text NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	CONSTRAINT "coupon_products_pkey" PRIMARY KEY ("coupon_id","product_id")
);--> statement-breakpoint
INSERT INTO "coupon_products" ("coupon_id", "product_id")
	SELECT "id", "product_id" FROM "coupons" WHERE "product_id" IS NOT NULL;--> statement-breakpoint
-- Per-buyer limits count a buyer's redemptions of one coupon.
CREATE INDEX "purchases_coupon_buyer_idx" ON "purchases" USING btree ("coupon_id","buyer_id") WHERE "coupon_id" IS NOT NULL;--> statement-breakpoint
-- The sandbox provider's refunds of a session: idempotency key, payment and amount of each.
ALTER TABLE "sandbox_sessions" ADD COLUMN "refunds" jsonb DEFAULT '[]'::jsonb NOT NULL;
