CREATE TABLE "saved_searches" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"q" text NOT NULL,
	"category" text,
	"kind" text,
	"platform" text,
	"min_price" integer,
	"max_price" integer,
	"alerts" boolean DEFAULT true NOT NULL,
	"checked_until" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_search_hits" (
	"saved_search_id" text NOT NULL,
	"product_id" text NOT NULL,
	"user_id" text NOT NULL,
	"mailed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_search_hits_pkey" PRIMARY KEY("saved_search_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "alert_mail_days" (
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"mails" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "alert_mail_days_pkey" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_hits" ADD CONSTRAINT "saved_search_hits_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_hits" ADD CONSTRAINT "saved_search_hits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_mail_days" ADD CONSTRAINT "alert_mail_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_searches_user_idx" ON "saved_searches" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "saved_searches_alerts_idx" ON "saved_searches" USING btree ("checked_until") WHERE "alerts";--> statement-breakpoint
CREATE INDEX "saved_search_hits_unmailed_idx" ON "saved_search_hits" USING btree ("user_id") WHERE "mailed_at" is null;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "member_plan" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "member_discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "support_messages" ADD COLUMN "priority" boolean DEFAULT false NOT NULL;
