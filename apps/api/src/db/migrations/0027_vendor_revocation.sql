-- A vendor ending a buyer's access (issue 16): when, why and by whom. Money does not move; a
-- refund, if any, is its own event.
ALTER TABLE "purchases" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "revoked_reason" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "revoked_by" text REFERENCES "users"("id") ON DELETE set null;--> statement-breakpoint
-- The vendor's sales list, newest first.
CREATE INDEX "purchases_vendor_created_idx" ON "purchases" USING btree ("vendor_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
