CREATE TABLE "domain_events" (
	"position" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"stream" text NOT NULL,
	"version" integer NOT NULL,
	"data" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "domain_events_id_idx" ON "domain_events" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "domain_events_stream_version_idx" ON "domain_events" USING btree ("stream","version");--> statement-breakpoint
CREATE TABLE "event_deliveries" (
	"event_id" text NOT NULL,
	"subscriber" text NOT NULL,
	"stream" text NOT NULL,
	"version" integer NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "event_deliveries_event_id_subscriber_pk" PRIMARY KEY("event_id","subscriber")
);
--> statement-breakpoint
ALTER TABLE "event_deliveries" ADD CONSTRAINT "event_deliveries_event_id_domain_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."domain_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_deliveries_due_idx" ON "event_deliveries" USING btree ("next_attempt_at") WHERE "event_deliveries"."delivered_at" is null;--> statement-breakpoint
CREATE INDEX "event_deliveries_queue_idx" ON "event_deliveries" USING btree ("subscriber","stream","version") WHERE "event_deliveries"."delivered_at" is null;
