-- Access delivery (issue 16, ADR 031): linked Discord accounts, OAuth states, vendors' servers and
-- bindings, and each entitlement's delivery state and history.
CREATE TABLE "discord_links" (
	"user_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"discord_user_id" text NOT NULL,
	"username" text NOT NULL,
	"global_name" text,
	"avatar_url" text,
	"scopes" text[] NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"token_expires_at" timestamp with time zone,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "discord_links_discord_user_key" ON "discord_links" USING btree ("discord_user_id");
--> statement-breakpoint
CREATE TABLE "discord_oauth_states" (
	"nonce" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"purpose" text NOT NULL,
	"vendor_url" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "vendor_discord_servers" (
	"vendor_id" text NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"guild_id" text NOT NULL,
	"name" text NOT NULL,
	"icon_url" text,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vendor_discord_servers_vendor_id_guild_id_pk" PRIMARY KEY("vendor_id","guild_id")
);
--> statement-breakpoint
CREATE TABLE "community_bindings" (
	"product_id" text PRIMARY KEY NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"vendor_id" text NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"guild_id" text NOT NULL,
	"guild_name" text NOT NULL,
	"guild_icon_url" text,
	"roles" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "community_bindings_guild_idx" ON "community_bindings" USING btree ("guild_id");
--> statement-breakpoint
CREATE TABLE "access_deliveries" (
	"entitlement_id" text PRIMARY KEY NOT NULL REFERENCES "entitlements"("id") ON DELETE cascade,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"state" text NOT NULL,
	"reason" text,
	"next_retry_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"invite_url" text,
	"invite_expires_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "access_deliveries_user_idx" ON "access_deliveries" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "access_events" (
	"id" text PRIMARY KEY NOT NULL,
	"entitlement_id" text NOT NULL REFERENCES "entitlements"("id") ON DELETE cascade,
	"type" text NOT NULL,
	"detail" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "access_events_entitlement_idx" ON "access_events" USING btree ("entitlement_id","at");
