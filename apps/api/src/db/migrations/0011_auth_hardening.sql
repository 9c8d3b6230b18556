CREATE TABLE "denied_sessions" (
	"family_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"reason" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "denied_sessions_created_idx" ON "denied_sessions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "denied_sessions_expires_idx" ON "denied_sessions" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "email_codes" DROP COLUMN "attempts";
