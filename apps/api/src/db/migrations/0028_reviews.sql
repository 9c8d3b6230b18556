-- Reviews (issue 18, ADR 036): one review per buyer and product, hidden (not deleted) when its
-- purchase is undone, with the vendor's one reply; published ratings counted per product and star.
CREATE TABLE "reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"vendor_id" text NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"rating" smallint NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"hidden_reason" text,
	"hidden_at" timestamp with time zone,
	"reply_text" text,
	"replied_at" timestamp with time zone,
	CONSTRAINT "reviews_rating_check" CHECK ("rating" between 1 and 5)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_product_user_key" ON "reviews" USING btree ("product_id","user_id");
--> statement-breakpoint
CREATE INDEX "reviews_vendor_newest_idx" ON "reviews" USING btree ("vendor_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "hidden_reason" is null;
--> statement-breakpoint
CREATE INDEX "reviews_product_newest_idx" ON "reviews" USING btree ("product_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "hidden_reason" is null;
--> statement-breakpoint
CREATE INDEX "reviews_user_idx" ON "reviews" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "review_stats" (
	"product_id" text PRIMARY KEY NOT NULL REFERENCES "products"("id") ON DELETE cascade,
	"vendor_id" text NOT NULL REFERENCES "vendors"("id") ON DELETE cascade,
	"count_1" integer DEFAULT 0 NOT NULL,
	"count_2" integer DEFAULT 0 NOT NULL,
	"count_3" integer DEFAULT 0 NOT NULL,
	"count_4" integer DEFAULT 0 NOT NULL,
	"count_5" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "review_stats_vendor_idx" ON "review_stats" USING btree ("vendor_id");
--> statement-breakpoint
-- Ratings come from reviews now: the demo catalogue's made-up figures go (the demo seed writes
-- real reviews, which set them again).
UPDATE "products" SET "rating_average" = 0, "rating_count" = 0 WHERE "rating_count" <> 0 OR "rating_average" <> 0;
