-- Account controls (issue 33, ADR 058): the device behind each refresh token, the devices an
-- account has signed in from, e-mail changes waiting for their link, and usernames held after a change.
ALTER TABLE "refresh_tokens" ADD COLUMN "user_agent" text;
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "address" text;
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "device_hash" text;
--> statement-breakpoint
CREATE TABLE "known_devices" (
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"device_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "known_devices_user_id_device_hash_pk" PRIMARY KEY("user_id","device_hash")
);
--> statement-breakpoint
CREATE TABLE "email_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"new_email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_changes_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE INDEX "email_changes_user_idx" ON "email_changes" USING btree ("user_id");
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "username_changed_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "username_holds" (
	"name" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"held_until" timestamp with time zone NOT NULL
);
