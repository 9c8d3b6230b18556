-- The Stripe-compatible payments sandbox (issue 30): its objects, request log (idempotency) and events.
CREATE TABLE IF NOT EXISTS "sandbox_stripe_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"private" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"seq" bigserial NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sandbox_stripe_objects_type_seq_idx" ON "sandbox_stripe_objects" USING btree ("type","seq");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sandbox_stripe_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"params" jsonb NOT NULL,
	"idempotency_key" text,
	"body_hash" text NOT NULL,
	"status" integer,
	"response" jsonb,
	"replay_of" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_stripe_requests_idempotency_key" ON "sandbox_stripe_requests" USING btree ("idempotency_key") WHERE "sandbox_stripe_requests"."idempotency_key" is not null and "sandbox_stripe_requests"."replay_of" is null;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sandbox_stripe_requests_path_idx" ON "sandbox_stripe_requests" USING btree ("path","id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sandbox_stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"seq" bigserial NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_status" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sandbox_stripe_events_due_idx" ON "sandbox_stripe_events" USING btree ("next_attempt_at") WHERE "sandbox_stripe_events"."delivered_at" is null;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sandbox_stripe_events_seq_idx" ON "sandbox_stripe_events" USING btree ("seq");
