-- Alerts that arrive (issue 31, ADR 059): alert feeds, their alerts, subscribers' channels and the
-- fan-out per alert, recipient and channel.
CREATE TABLE "alert_feeds" (
	"product_id" text PRIMARY KEY NOT NULL,
	"vendor_id" text NOT NULL,
	"secret_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"product_id" text NOT NULL,
	"source" text NOT NULL,
	"dedupe_key" text,
	"symbol" text,
	"side" text,
	"price" text,
	"text" text NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_subscriptions" (
	"user_id" text NOT NULL,
	"product_id" text NOT NULL,
	"web" boolean DEFAULT true NOT NULL,
	"email" boolean DEFAULT false NOT NULL,
	"webhook_endpoint_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_subscriptions_user_id_product_id_pk" PRIMARY KEY("user_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"alert_id" text NOT NULL,
	"user_id" text NOT NULL,
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"endpoint_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_deliveries_alert_id_user_id_channel_pk" PRIMARY KEY("alert_id","user_id","channel")
);
--> statement-breakpoint
ALTER TABLE "alert_feeds" ADD CONSTRAINT "alert_feeds_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_feeds" ADD CONSTRAINT "alert_feeds_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_product_id_alert_feeds_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."alert_feeds"("product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_webhook_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("webhook_endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_seq_idx" ON "alerts" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "alerts_feed_idx" ON "alerts" USING btree ("product_id","seq");--> statement-breakpoint
CREATE INDEX "alerts_dedupe_idx" ON "alerts" USING btree ("product_id","dedupe_key","created_at") WHERE "alerts"."dedupe_key" is not null;--> statement-breakpoint
CREATE INDEX "alert_subscriptions_product_idx" ON "alert_subscriptions" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "alert_deliveries_user_idx" ON "alert_deliveries" USING btree ("user_id","alert_id");--> statement-breakpoint
CREATE INDEX "alert_deliveries_mail_idx" ON "alert_deliveries" USING btree ("created_at") WHERE "alert_deliveries"."channel" = 'email' and "alert_deliveries"."status" = 'queued';
