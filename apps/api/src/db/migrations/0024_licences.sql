-- Licences for app products (issue 17, ADR 032): per-product terms, builds, licences with their
-- activations and history, and each vendor's Ed25519 signing key.
CREATE TABLE "licence_products" (
	"product_id" text PRIMARY KEY NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"max_activations" integer DEFAULT 3 NOT NULL,
	"binding" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "licence_products_max_activations_check" CHECK ("max_activations" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "licence_builds" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"version" text NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "licence_builds_product_idx" ON "licence_builds" USING btree ("product_id","published_at");
--> statement-breakpoint
CREATE TABLE "licences" (
	"id" text PRIMARY KEY NOT NULL,
	"purchase_id" text REFERENCES "purchases"("id") ON DELETE cascade,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"product_id" text NOT NULL REFERENCES "products"("id") ON DELETE restrict,
	"vendor_id" text NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"key_hash" text NOT NULL,
	"key_sealed" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"expires_at" timestamp with time zone,
	"ended_reason" text,
	"max_activations" integer NOT NULL,
	"binding" text,
	"resets_used" integer DEFAULT 0 NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "licences_key_hash_key" ON "licences" USING btree ("key_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "licences_purchase_product_key" ON "licences" USING btree ("purchase_id","product_id");
--> statement-breakpoint
CREATE INDEX "licences_user_idx" ON "licences" USING btree ("user_id","issued_at");
--> statement-breakpoint
CREATE TABLE "licence_activations" (
	"id" text PRIMARY KEY NOT NULL,
	"licence_id" text NOT NULL REFERENCES "licences"("id") ON DELETE cascade,
	"binding" text NOT NULL,
	"fingerprint" text NOT NULL,
	"name" text NOT NULL,
	"activated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "licence_activations_fingerprint_key" ON "licence_activations" USING btree ("licence_id","fingerprint");
--> statement-breakpoint
CREATE TABLE "licence_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "licence_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"licence_id" text NOT NULL REFERENCES "licences"("id") ON DELETE cascade,
	"type" text NOT NULL,
	"detail" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "licence_events_licence_idx" ON "licence_events" USING btree ("licence_id","at");
--> statement-breakpoint
CREATE TABLE "licence_vendor_keys" (
	"vendor_id" text PRIMARY KEY NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"key_id" text NOT NULL,
	"public_key" text NOT NULL,
	"private_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
