CREATE TABLE "sandbox_discord_users" (
	"id" bigint PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"global_name" text,
	"bot" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_discord_users_username_key" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "sandbox_discord_guilds" (
	"id" bigint PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_discord_roles" (
	"id" bigint PRIMARY KEY NOT NULL,
	"guild_id" bigint NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"permissions" text DEFAULT '0' NOT NULL,
	"managed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_discord_channels" (
	"id" bigint PRIMARY KEY NOT NULL,
	"guild_id" bigint NOT NULL,
	"name" text NOT NULL,
	"type" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_discord_members" (
	"guild_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_discord_members_pkey" PRIMARY KEY("guild_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_discord_member_roles" (
	"guild_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"role_id" bigint NOT NULL,
	CONSTRAINT "sandbox_discord_member_roles_pkey" PRIMARY KEY("guild_id","user_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_discord_invites" (
	"code" text PRIMARY KEY NOT NULL,
	"guild_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"inviter_id" bigint,
	"max_age" integer NOT NULL,
	"max_uses" integer NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_discord_oauth_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"redirect_uri" text NOT NULL,
	"scopes" text[] NOT NULL,
	"guild_id" bigint,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_discord_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"refresh_hash" text NOT NULL,
	"client_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_discord_roles" ADD CONSTRAINT "sandbox_discord_roles_guild_id_sandbox_discord_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."sandbox_discord_guilds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_discord_channels" ADD CONSTRAINT "sandbox_discord_channels_guild_id_sandbox_discord_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."sandbox_discord_guilds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_discord_members" ADD CONSTRAINT "sandbox_discord_members_guild_id_sandbox_discord_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."sandbox_discord_guilds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_discord_members" ADD CONSTRAINT "sandbox_discord_members_user_id_sandbox_discord_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sandbox_discord_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_discord_member_roles" ADD CONSTRAINT "sandbox_discord_member_roles_role_id_sandbox_discord_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."sandbox_discord_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_discord_member_roles" ADD CONSTRAINT "sandbox_discord_member_roles_member_fk" FOREIGN KEY ("guild_id","user_id") REFERENCES "public"."sandbox_discord_members"("guild_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_discord_invites" ADD CONSTRAINT "sandbox_discord_invites_guild_id_sandbox_discord_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."sandbox_discord_guilds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_discord_oauth_codes" ADD CONSTRAINT "sandbox_discord_oauth_codes_user_id_sandbox_discord_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sandbox_discord_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_discord_tokens" ADD CONSTRAINT "sandbox_discord_tokens_user_id_sandbox_discord_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sandbox_discord_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_discord_roles_guild_idx" ON "sandbox_discord_roles" USING btree ("guild_id","position");--> statement-breakpoint
CREATE INDEX "sandbox_discord_channels_guild_idx" ON "sandbox_discord_channels" USING btree ("guild_id","position");--> statement-breakpoint
CREATE INDEX "sandbox_discord_members_user_idx" ON "sandbox_discord_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sandbox_discord_member_roles_role_idx" ON "sandbox_discord_member_roles" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "sandbox_discord_tokens_user_idx" ON "sandbox_discord_tokens" USING btree ("user_id","client_id");
