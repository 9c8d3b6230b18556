-- Search postings (ADR 015): one row per (title/tag lexeme, active product), carrying the columns search
-- filters and sorts on, so the first page of a query is a short index range scan instead of ranking every
-- match on the wide products heap. Kept in step with products by statement-level triggers, which with
-- the functions they call were defined here until ADR 068: search.sql defines them now.
CREATE TABLE "search_postings" (
	"lexeme" text COLLATE "C" NOT NULL,
	"product_id" text NOT NULL,
	"in_title" boolean NOT NULL,
	"category" text NOT NULL,
	"kind" text NOT NULL,
	"platforms" text[] NOT NULL,
	"sort_amount" integer NOT NULL,
	"sales_count" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"rating_average" numeric(3, 2) NOT NULL,
	"rating_count" integer NOT NULL,
	CONSTRAINT "search_postings_pk" PRIMARY KEY ("product_id", "lexeme") INCLUDE ("in_title")
);
--> statement-breakpoint
CREATE INDEX "search_postings_rank_idx" ON "search_postings" ("lexeme", "in_title" DESC, "sales_count" DESC, "product_id") INCLUDE ("category", "kind", "platforms", "sort_amount");
--> statement-breakpoint
-- The same within a category: the category facet is the most used filter.
CREATE INDEX "search_postings_cat_rank_idx" ON "search_postings" ("lexeme", "category", "in_title" DESC, "sales_count" DESC, "product_id") INCLUDE ("kind", "platforms", "sort_amount");
--> statement-breakpoint
CREATE INDEX "search_postings_sales_idx" ON "search_postings" ("lexeme", "sales_count" DESC, "product_id");
--> statement-breakpoint
CREATE INDEX "search_postings_created_idx" ON "search_postings" ("lexeme", "created_at" DESC, "product_id");
--> statement-breakpoint
CREATE INDEX "search_postings_price_idx" ON "search_postings" ("lexeme", "sort_amount", "product_id");
--> statement-breakpoint
CREATE INDEX "search_postings_rating_idx" ON "search_postings" ("lexeme", "rating_average" DESC, "rating_count" DESC, "product_id");
--> statement-breakpoint
-- Per lexeme, how many active products carry it in title or tags (df: picks the rarest word to drive a
-- query and the most common completions of a prefix) and how many only in summary or description
-- (body_df: whether a description-only match can exist at all). "C" collation: a prefix is a btree range.
CREATE TABLE "search_lexicon" (
	"lexeme" text COLLATE "C" PRIMARY KEY,
	"df" integer NOT NULL,
	"body_df" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "products_title_lower_idx" ON "products" (lower("title")) WHERE "is_active";
