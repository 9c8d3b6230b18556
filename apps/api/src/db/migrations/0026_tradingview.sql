-- TradingView invite-only scripts (issue 17, ADR 034): vendors' scripts, the products that deliver
-- them, buyers' usernames with their history, the vendor's access queue and the grants it tracks.
CREATE TABLE "tradingview_scripts" (
	"id" text PRIMARY KEY NOT NULL,
	"vendor_id" text NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "tradingview_scripts_vendor_url_key" ON "tradingview_scripts" USING btree ("vendor_id","url");
--> statement-breakpoint
CREATE TABLE "tradingview_product_scripts" (
	"product_id" text NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"script_id" text NOT NULL REFERENCES "tradingview_scripts"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tradingview_product_scripts_product_id_script_id_pk" PRIMARY KEY("product_id","script_id")
);
--> statement-breakpoint
CREATE INDEX "tradingview_product_scripts_script_idx" ON "tradingview_product_scripts" USING btree ("script_id");
--> statement-breakpoint
CREATE TABLE "tradingview_usernames" (
	"user_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"username" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tradingview_username_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tradingview_username_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"old_username" text,
	"new_username" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "tradingview_username_changes_user_idx" ON "tradingview_username_changes" USING btree ("user_id","at");
--> statement-breakpoint
CREATE TABLE "tradingview_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"vendor_id" text NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"buyer_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"entitlement_id" text NOT NULL REFERENCES "entitlements"("id") ON DELETE cascade,
	"purchase_id" text NOT NULL,
	"product_id" text NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"kind" text NOT NULL,
	"username" text NOT NULL,
	"expires_at" timestamp with time zone,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"due_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"completed_by" text,
	"note" text,
	"cancelled_at" timestamp with time zone,
	"reminder_sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "tradingview_tasks_vendor_idx" ON "tradingview_tasks" USING btree ("vendor_id","status","created_at","id");
--> statement-breakpoint
CREATE INDEX "tradingview_tasks_overdue_idx" ON "tradingview_tasks" USING btree ("due_at") WHERE status = 'pending' and kind = 'revoke' and reminder_sent_at is null;
--> statement-breakpoint
CREATE TABLE "tradingview_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"entitlement_id" text NOT NULL REFERENCES "entitlements"("id") ON DELETE cascade,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"script_id" text NOT NULL REFERENCES "tradingview_scripts"("id") ON DELETE cascade,
	"username" text NOT NULL,
	"state" text NOT NULL,
	"grant_task_id" text NOT NULL REFERENCES "tradingview_tasks"("id") ON DELETE cascade,
	"revoke_task_id" text REFERENCES "tradingview_tasks"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "tradingview_grants_user_idx" ON "tradingview_grants" USING btree ("user_id");
--> statement-breakpoint
CREATE INDEX "tradingview_grants_grant_task_idx" ON "tradingview_grants" USING btree ("grant_task_id");
--> statement-breakpoint
CREATE INDEX "tradingview_grants_revoke_task_idx" ON "tradingview_grants" USING btree ("revoke_task_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "tradingview_grants_live_key" ON "tradingview_grants" USING btree ("user_id","script_id",lower("username")) WHERE state in ('granting', 'active', 'revoking');
