-- Vendor course builder and licence policy (issue 19, ADR 044): lessons and modules are deleted softly
-- (buyers' progress stays; the vendor can undo), uploaded videos keep their name and size, and a
-- vendor's licence signing key can be rotated (retired keys stay, pinned to the licences issued
-- under them).
ALTER TABLE "course_modules" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "course_lessons" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "course_lessons" ADD COLUMN "video_name" text;--> statement-breakpoint
ALTER TABLE "course_lessons" ADD COLUMN "video_bytes" bigint;--> statement-breakpoint
ALTER TABLE "licence_vendor_keys" DROP CONSTRAINT "licence_vendor_keys_pkey";--> statement-breakpoint
ALTER TABLE "licence_vendor_keys" ADD PRIMARY KEY ("key_id");--> statement-breakpoint
ALTER TABLE "licence_vendor_keys" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "licence_vendor_keys_current_key" ON "licence_vendor_keys" USING btree ("vendor_id") WHERE "retired_at" IS NULL;--> statement-breakpoint
CREATE INDEX "licence_vendor_keys_vendor_idx" ON "licence_vendor_keys" USING btree ("vendor_id","created_at");--> statement-breakpoint
ALTER TABLE "licences" ADD COLUMN "signing_key_id" text REFERENCES "licence_vendor_keys"("key_id") ON DELETE set null;--> statement-breakpoint
CREATE INDEX "licences_product_idx" ON "licences" USING btree ("product_id","status");
