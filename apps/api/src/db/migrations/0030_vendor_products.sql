-- Vendors publish their own products (issue 19, ADR 040): a draft has never been published; an
-- unpublished product has. Products already listed count as published when they were created.
ALTER TABLE "products" ADD COLUMN "published_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "products" SET "published_at" = "created_at" WHERE "is_active";
--> statement-breakpoint
-- The vendor's product list: most recently edited first, paged by (updated_at, id).
CREATE INDEX "products_vendor_updated_idx" ON "products" USING btree ("vendor_id", "updated_at" DESC, "id" DESC);
--> statement-breakpoint
-- A counter per kind of public content, bumped by every edit in its transaction: each node polls it
-- and drops its page and search caches when another node changed the catalogue (ADR 040).
CREATE TABLE "content_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "content_versions" ("name") VALUES ('catalog');
