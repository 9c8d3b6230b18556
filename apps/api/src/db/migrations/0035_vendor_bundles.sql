-- Vendors edit their own bundles (issue 19, ADR 046): a draft has never been published; an unpublished
-- bundle has. Bundles already listed count as published when they were created.
ALTER TABLE "bundles" ADD COLUMN "published_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "bundles" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
UPDATE "bundles" SET "published_at" = CASE WHEN "is_active" THEN "created_at" END, "updated_at" = "created_at";
--> statement-breakpoint
-- The vendor's bundle list: most recently edited first, paged by (updated_at, id).
CREATE INDEX "bundles_vendor_updated_idx" ON "bundles" USING btree ("vendor_id", "updated_at" DESC, "id" DESC);
--> statement-breakpoint
-- What a bundle purchase gave: the bundle's products when it was paid. Owning a product through a
-- bundle reads this list, so a vendor who later takes a product out of the bundle takes nothing
-- from its buyers. Ownerships already granted keep the products their bundle holds today.
ALTER TABLE "ownerships" ADD COLUMN "bundle_product_ids" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
UPDATE "ownerships" o SET "bundle_product_ids" = coalesce(
  (SELECT array_agg(bi."product_id" ORDER BY bi."product_id") FROM "bundle_items" bi WHERE bi."bundle_id" = o."bundle_id"),
  '{}'::text[])
WHERE o."bundle_id" IS NOT NULL;
