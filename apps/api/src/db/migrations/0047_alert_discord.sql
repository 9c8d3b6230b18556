-- Alerts posted to the vendor's Discord server (issue 31, ADR 059): the feed's channel, the
-- holder's Discord choice, one post per alert; the Discord sandbox keeps channel overwrites and
-- messages.
ALTER TABLE "alert_feeds" ADD COLUMN "discord_guild_id" text;--> statement-breakpoint
ALTER TABLE "alert_feeds" ADD COLUMN "discord_channel_id" text;--> statement-breakpoint
ALTER TABLE "alert_feeds" ADD COLUMN "discord_channel_name" text;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD COLUMN "discord" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE "alert_discord_posts" (
	"alert_id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"channel_name" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"message_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_discord_posts" ADD CONSTRAINT "alert_discord_posts_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_discord_posts_due_idx" ON "alert_discord_posts" USING btree ("next_attempt_at") WHERE "alert_discord_posts"."status" = 'queued';--> statement-breakpoint
ALTER TABLE "sandbox_discord_channels" ADD COLUMN "topic" text;--> statement-breakpoint
ALTER TABLE "sandbox_discord_channels" ADD COLUMN "overwrites" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE TABLE "sandbox_discord_messages" (
	"id" bigint PRIMARY KEY NOT NULL,
	"channel_id" bigint NOT NULL,
	"author_id" bigint NOT NULL,
	"content" text NOT NULL,
	"embeds" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"nonce" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_discord_messages" ADD CONSTRAINT "sandbox_discord_messages_channel_id_sandbox_discord_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."sandbox_discord_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_discord_messages_channel_idx" ON "sandbox_discord_messages" USING btree ("channel_id","id");--> statement-breakpoint
CREATE INDEX "sandbox_discord_messages_nonce_idx" ON "sandbox_discord_messages" USING btree ("channel_id","author_id","nonce") WHERE "sandbox_discord_messages"."nonce" is not null;
