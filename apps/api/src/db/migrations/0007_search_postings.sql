-- Search postings (ADR 015): one row per (title/tag lexeme, active product), carrying the columns search
-- filters and sorts on, so the first page of a query is a short index range scan instead of ranking every
-- match on the wide products heap. Kept in step with products by statement-level triggers below.
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
--> statement-breakpoint
-- The spelling vocabulary's words for one product (search_terms counts products per word).
CREATE FUNCTION tradeshelf_title_words(title text, tags text[]) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT w FROM unnest(regexp_split_to_array(lower(title || ' ' || tradeshelf_immutable_join(tags)), '[^a-z0-9]+')) w
  WHERE length(w) >= 3 AND w !~ '^[0-9]+$'
$$;
--> statement-breakpoint
-- Lexicon counts for a set of products: title/tag lexemes (weights A, B) and description-only ones (C).
CREATE FUNCTION tradeshelf_lexeme_counts(batch products[]) RETURNS TABLE (lexeme text, df integer, body_df integer)
LANGUAGE sql STABLE AS $$
  SELECT u.lexeme, count(*) FILTER (WHERE u.weights && array['A', 'B'])::int,
         count(*) FILTER (WHERE NOT u.weights && array['A', 'B'])::int
  FROM unnest(batch) r, unnest(r.search_vector) u GROUP BY u.lexeme
$$;
--> statement-breakpoint
-- Lexicon and vocabulary rows are locked in key order, so concurrent catalogue edits queue, never deadlock.
CREATE FUNCTION tradeshelf_search_add(added products[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_postings (lexeme, product_id, in_title, category, kind, platforms, sort_amount, sales_count,
                               created_at, rating_average, rating_count)
    SELECT u.lexeme, a.id, 'A' = ANY (u.weights), a.category, a.kind, a.platforms, a.sort_amount, a.sales_count,
           a.created_at, a.rating_average, a.rating_count
    FROM unnest(added) a, unnest(a.rank_vector) u;
  INSERT INTO search_lexicon AS l (lexeme, df, body_df)
    SELECT c.lexeme, c.df, c.body_df FROM tradeshelf_lexeme_counts(added) c ORDER BY c.lexeme
    ON CONFLICT (lexeme) DO UPDATE SET df = l.df + excluded.df, body_df = l.body_df + excluded.body_df;
  INSERT INTO search_terms AS t (term, frequency)
    SELECT w, count(*)::int FROM unnest(added) a, tradeshelf_title_words(a.title, a.tags) w GROUP BY w ORDER BY w
    ON CONFLICT (term) DO UPDATE SET frequency = t.frequency + excluded.frequency;
$$;
--> statement-breakpoint
CREATE FUNCTION tradeshelf_search_remove(gone products[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_postings WHERE product_id IN (SELECT g.id FROM unnest(gone) g);
  WITH c AS (SELECT * FROM tradeshelf_lexeme_counts(gone)),
    locked AS (SELECT l.lexeme FROM search_lexicon l JOIN c USING (lexeme) ORDER BY l.lexeme FOR UPDATE OF l)
  UPDATE search_lexicon l SET df = l.df - c.df, body_df = l.body_df - c.body_df
  FROM c, locked WHERE l.lexeme = c.lexeme AND locked.lexeme = c.lexeme;
  DELETE FROM search_lexicon WHERE df <= 0 AND body_df <= 0
    AND lexeme IN (SELECT c.lexeme FROM tradeshelf_lexeme_counts(gone) c);
  WITH c AS (SELECT w, count(*)::int AS n FROM unnest(gone) g, tradeshelf_title_words(g.title, g.tags) w GROUP BY w),
    locked AS (SELECT t.term FROM search_terms t JOIN c ON c.w = t.term ORDER BY t.term FOR UPDATE OF t)
  UPDATE search_terms t SET frequency = t.frequency - c.n FROM c, locked WHERE t.term = c.w AND locked.term = c.w;
  DELETE FROM search_terms WHERE frequency <= 0;
$$;
--> statement-breakpoint
CREATE FUNCTION tradeshelf_search_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tradeshelf_search_add(array(SELECT n::products FROM new_rows n WHERE n.is_active));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION tradeshelf_search_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tradeshelf_search_remove(array(SELECT o::products FROM old_rows o WHERE o.is_active));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A changed text (title, tags, summary, description) or visibility re-indexes the product; any other change to a column search
-- filters or sorts on (a sale, a new price, a rating) is copied onto its postings.
CREATE FUNCTION tradeshelf_search_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tradeshelf_search_remove(array(
    SELECT o::products FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.is_active AND NOT (n.is_active AND n.search_vector = o.search_vector)));
  PERFORM tradeshelf_search_add(array(
    SELECT n::products FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.is_active AND NOT (o.is_active AND n.search_vector = o.search_vector)));
  UPDATE search_postings s
  SET category = n.category, kind = n.kind, platforms = n.platforms, sort_amount = n.sort_amount,
      sales_count = n.sales_count, created_at = n.created_at, rating_average = n.rating_average,
      rating_count = n.rating_count
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE s.product_id = n.id AND n.is_active AND o.is_active AND n.search_vector = o.search_vector
    AND (n.category, n.kind, n.platforms, n.sort_amount, n.sales_count, n.created_at, n.rating_average, n.rating_count)
        IS DISTINCT FROM (o.category, o.kind, o.platforms, o.sort_amount, o.sales_count, o.created_at, o.rating_average, o.rating_count);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_search_insert AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tradeshelf_search_on_insert();
--> statement-breakpoint
CREATE TRIGGER products_search_update AFTER UPDATE ON products REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tradeshelf_search_on_update();
--> statement-breakpoint
CREATE TRIGGER products_search_delete AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tradeshelf_search_on_delete();
--> statement-breakpoint
-- Existing catalogues: index what is there now (the vocabulary is rebuilt the same way).
DELETE FROM search_terms;
--> statement-breakpoint
SELECT tradeshelf_search_add(array(SELECT p FROM products p WHERE p.is_active));
