CREATE TABLE "auto_refunds" (
	"purchase_id" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"payment_ref" text,
	"subscription_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_events" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_status" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_customers" ADD COLUMN "vendor_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_customers" DROP CONSTRAINT "payment_customers_user_id_provider_pk";--> statement-breakpoint
ALTER TABLE "payment_customers" ADD CONSTRAINT "payment_customers_user_id_provider_vendor_id_pk" PRIMARY KEY("user_id","provider","vendor_id");--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "auto_refunds" ADD CONSTRAINT "auto_refunds_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_refunds_due_idx" ON "auto_refunds" USING btree ("next_attempt_at") WHERE "auto_refunds"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "sandbox_events_due_idx" ON "sandbox_events" USING btree ("next_attempt_at") WHERE "sandbox_events"."delivered_at" is null;--> statement-breakpoint
CREATE INDEX "sandbox_events_session_idx" ON "sandbox_events" USING btree ("session_id","created_at");