-- Deliverables (issue 29, ADR 053): files per platform in numbered versions, one current per
-- platform (a partial unique index), a set-up guide and an updates promise per product, downloads
-- counted per buyer, and per-product opt-outs from new-version e-mails.
CREATE TABLE "deliverable_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"platform" text NOT NULL,
	"version" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"file_name" text,
	"size_bytes" bigint,
	"sha256" text,
	"storage_key" text,
	"link" text,
	"zip_dir_offset" bigint,
	"zip_dir_size" integer,
	"zip_entries" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"is_current" boolean DEFAULT false NOT NULL,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "deliverable_versions_platform_check" CHECK ("platform" in ('mt4', 'mt5', 'ninjatrader', 'ctrader', 'tradestation', 'thinkorswim', 'windows', 'macos', 'any')),
	CONSTRAINT "deliverable_versions_file_or_link" CHECK (("link" is null) = ("storage_key" is not null and "file_name" is not null and "size_bytes" is not null and "sha256" is not null)),
	CONSTRAINT "deliverable_versions_current_published" CHECK (not "is_current" or "published_at" is not null)
);--> statement-breakpoint
CREATE UNIQUE INDEX "deliverable_versions_number_key" ON "deliverable_versions" USING btree ("product_id","platform","version");--> statement-breakpoint
CREATE UNIQUE INDEX "deliverable_versions_current_key" ON "deliverable_versions" USING btree ("product_id","platform") WHERE "is_current";--> statement-breakpoint
CREATE INDEX "deliverable_versions_product_idx" ON "deliverable_versions" USING btree ("product_id","published_at");--> statement-breakpoint
CREATE TABLE "delivery_settings" (
	"product_id" text PRIMARY KEY NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"update_policy" text DEFAULT 'lifetime' NOT NULL,
	"guide" text DEFAULT '' NOT NULL,
	"guide_updated_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_settings_policy_check" CHECK ("update_policy" in ('lifetime', 'year', 'none'))
);--> statement-breakpoint
CREATE TABLE "deliverable_downloads" (
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"version_id" text NOT NULL REFERENCES "deliverable_versions"("id") ON DELETE cascade,
	"count" integer DEFAULT 0 NOT NULL,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deliverable_downloads_pkey" PRIMARY KEY ("user_id","version_id")
);--> statement-breakpoint
CREATE INDEX "deliverable_downloads_version_idx" ON "deliverable_downloads" USING btree ("version_id");--> statement-breakpoint
CREATE TABLE "version_mail_opt_outs" (
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"product_id" text NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "version_mail_opt_outs_pkey" PRIMARY KEY ("user_id","product_id")
);
--> statement-breakpoint
-- App builds become deliverables for Windows: each product's newest build is its current version. A
-- version number a product used twice gets the upload's rank as a suffix (numbers are unique now).
INSERT INTO "deliverable_versions" ("id", "product_id", "platform", "version", "file_name", "size_bytes", "sha256", "storage_key", "created_at", "published_at", "is_current", "mailed_at")
SELECT b."id", b."product_id", 'windows',
	CASE WHEN b."rank" = 1 THEN b."version" ELSE left(b."version", 24) || '-' || b."rank" END,
	b."file_name", b."size_bytes", b."sha256", b."storage_key", b."published_at", b."published_at",
	b."newest" = 1, b."published_at"
FROM (
	SELECT *, row_number() OVER (PARTITION BY "product_id", "version" ORDER BY "published_at", "id") AS "rank",
		row_number() OVER (PARTITION BY "product_id" ORDER BY "published_at" DESC, "id" DESC) AS "newest"
	FROM "licence_builds"
) b;--> statement-breakpoint
DROP TABLE "licence_builds";
