-- The first page of a one- or two-word query, walked off the postings with cached plans (ADR 016): per
-- lexeme of the (rarer) word, an index range in the sort's order, at most `cap` postings (null: all), each
-- checked for the other word (if any) by a primary-key probe, stopping at `want`; merged, and for relevance
-- an exact title first (tier 0). Relevance with two words reads titles only (`title_only`): products with
-- both words in the title; search.ts ranks the whole intersection when these do not fill the page. A
-- statement built and planned per call spent ~0.6 ms parsing and planning to run ~0.5 ms; these keep one
-- generic plan per connection (the category facet has its own, on a category-led index). Same order and
-- ties as the statement search.ts builds for three words or more.
CREATE FUNCTION tradeshelf_walk(lexemes text[], other text[], sort text, want integer, cap integer,
  exact_title text, cat text, knd text, plat text, min_amount integer, max_amount integer)
RETURNS TABLE (product_id text, tier integer, n bigint)
LANGUAGE plpgsql STABLE
-- Generic plans estimate ~50 postings a lexeme and would bitmap-scan and sort them all; the index order
-- is the plan meant here (stopping at `want`), so sorts and bitmap scans are priced out, and with them JIT
-- (which those prices would trigger) and parallel workers.
SET plan_cache_mode = force_generic_plan SET enable_sort = off SET enable_bitmapscan = off SET jit = off
SET max_parallel_workers_per_gather = 0
AS $$
#variable_conflict use_column
DECLARE
  -- `in_title >= title_only` is an index range either way: all postings, or titles only.
  title_only boolean := sort = 'relevance' AND other IS NOT NULL;
BEGIN
  IF sort = 'relevance' THEN
    -- An exact title, then title matches before tag matches, then sales.
    IF cat IS NULL THEN
      RETURN QUERY SELECT x.id, x.tier, x.n FROM (
        (SELECT e.id, 0, 0::bigint FROM (
          -- Fenced (OFFSET 0): found through the title index, then sorted, never a walk of a sales index.
          SELECT p.id, p.sales_count FROM products p WHERE lower(p.title) = exact_title AND p.is_active AND (cat IS NULL OR p.category = cat) AND (knd IS NULL OR p.kind = knd) AND (plat IS NULL OR plat = ANY (p.platforms))
            AND (min_amount IS NULL OR p.sort_amount >= min_amount) AND (max_amount IS NULL OR p.sort_amount <= max_amount) OFFSET 0) e
         ORDER BY e.sales_count DESC, e.id LIMIT 5)
        UNION ALL
        SELECT u.product_id, 1, row_number() OVER (ORDER BY bool_or(u.in_title) DESC, u.sales_count DESC, u.product_id)
        FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
          SELECT w.product_id, w.in_title, w.sales_count FROM (
            SELECT s.product_id, s.in_title, s.sales_count FROM search_postings s
            WHERE s.lexeme = lx.lexeme AND s.in_title >= title_only AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
            AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
            ORDER BY s.in_title DESC, s.sales_count DESC, s.product_id LIMIT cap) w
          WHERE other IS NULL OR (SELECT true FROM search_postings o
            WHERE o.product_id = w.product_id AND o.lexeme = ANY (other) AND o.in_title >= title_only LIMIT 1)
          ORDER BY w.in_title DESC, w.sales_count DESC, w.product_id LIMIT want) u
        GROUP BY u.product_id, u.sales_count
      ) x (id, tier, n) ORDER BY x.tier, x.n LIMIT want + 5;
    ELSE
      RETURN QUERY SELECT x.id, x.tier, x.n FROM (
        (SELECT e.id, 0, 0::bigint FROM (
          -- Fenced (OFFSET 0): found through the title index, then sorted, never a walk of a sales index.
          SELECT p.id, p.sales_count FROM products p WHERE lower(p.title) = exact_title AND p.is_active AND p.category = cat AND (knd IS NULL OR p.kind = knd) AND (plat IS NULL OR plat = ANY (p.platforms))
            AND (min_amount IS NULL OR p.sort_amount >= min_amount) AND (max_amount IS NULL OR p.sort_amount <= max_amount) OFFSET 0) e
         ORDER BY e.sales_count DESC, e.id LIMIT 5)
        UNION ALL
        SELECT u.product_id, 1, row_number() OVER (ORDER BY bool_or(u.in_title) DESC, u.sales_count DESC, u.product_id)
        FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
          SELECT w.product_id, w.in_title, w.sales_count FROM (
            SELECT s.product_id, s.in_title, s.sales_count FROM search_postings s
            WHERE s.lexeme = lx.lexeme AND s.in_title >= title_only AND s.category = cat AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
            AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
            ORDER BY s.in_title DESC, s.sales_count DESC, s.product_id LIMIT cap) w
          WHERE other IS NULL OR (SELECT true FROM search_postings o
            WHERE o.product_id = w.product_id AND o.lexeme = ANY (other) AND o.in_title >= title_only LIMIT 1)
          ORDER BY w.in_title DESC, w.sales_count DESC, w.product_id LIMIT want) u
        GROUP BY u.product_id, u.sales_count
      ) x (id, tier, n) ORDER BY x.tier, x.n LIMIT want + 5;
    END IF;
  ELSIF sort = 'newest' THEN
    RETURN QUERY SELECT x.id, x.tier, x.n FROM (
      SELECT u.product_id, 1, row_number() OVER (ORDER BY u.created_at DESC, u.product_id)
        FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
          SELECT w.product_id, w.in_title, w.created_at FROM (
            SELECT s.product_id, s.in_title, s.created_at FROM search_postings s
            WHERE s.lexeme = lx.lexeme AND s.in_title >= title_only AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
            AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
            ORDER BY s.created_at DESC, s.product_id LIMIT cap) w
          WHERE other IS NULL OR (SELECT true FROM search_postings o
            WHERE o.product_id = w.product_id AND o.lexeme = ANY (other) AND o.in_title >= title_only LIMIT 1)
          ORDER BY w.created_at DESC, w.product_id LIMIT want) u
        GROUP BY u.product_id, u.created_at
    ) x (id, tier, n) ORDER BY x.n LIMIT want;
  ELSIF sort = 'price_asc' THEN
    RETURN QUERY SELECT x.id, x.tier, x.n FROM (
      SELECT u.product_id, 1, row_number() OVER (ORDER BY u.sort_amount, u.product_id)
        FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
          SELECT w.product_id, w.in_title, w.sort_amount FROM (
            SELECT s.product_id, s.in_title, s.sort_amount FROM search_postings s
            WHERE s.lexeme = lx.lexeme AND s.in_title >= title_only AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
            AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
            ORDER BY s.sort_amount, s.product_id LIMIT cap) w
          WHERE other IS NULL OR (SELECT true FROM search_postings o
            WHERE o.product_id = w.product_id AND o.lexeme = ANY (other) AND o.in_title >= title_only LIMIT 1)
          ORDER BY w.sort_amount, w.product_id LIMIT want) u
        GROUP BY u.product_id, u.sort_amount
    ) x (id, tier, n) ORDER BY x.n LIMIT want;
  ELSIF sort = 'price_desc' THEN
    RETURN QUERY SELECT x.id, x.tier, x.n FROM (
      SELECT u.product_id, 1, row_number() OVER (ORDER BY u.sort_amount DESC, u.product_id DESC)
        FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
          SELECT w.product_id, w.in_title, w.sort_amount FROM (
            SELECT s.product_id, s.in_title, s.sort_amount FROM search_postings s
            WHERE s.lexeme = lx.lexeme AND s.in_title >= title_only AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
            AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
            ORDER BY s.sort_amount DESC, s.product_id DESC LIMIT cap) w
          WHERE other IS NULL OR (SELECT true FROM search_postings o
            WHERE o.product_id = w.product_id AND o.lexeme = ANY (other) AND o.in_title >= title_only LIMIT 1)
          ORDER BY w.sort_amount DESC, w.product_id DESC LIMIT want) u
        GROUP BY u.product_id, u.sort_amount
    ) x (id, tier, n) ORDER BY x.n LIMIT want;
  ELSIF sort = 'rating' THEN
    RETURN QUERY SELECT x.id, x.tier, x.n FROM (
      SELECT u.product_id, 1, row_number() OVER (ORDER BY u.rating_average DESC, u.rating_count DESC, u.product_id)
        FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
          SELECT w.product_id, w.in_title, w.rating_average, w.rating_count FROM (
            SELECT s.product_id, s.in_title, s.rating_average, s.rating_count FROM search_postings s
            WHERE s.lexeme = lx.lexeme AND s.in_title >= title_only AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
            AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
            ORDER BY s.rating_average DESC, s.rating_count DESC, s.product_id LIMIT cap) w
          WHERE other IS NULL OR (SELECT true FROM search_postings o
            WHERE o.product_id = w.product_id AND o.lexeme = ANY (other) AND o.in_title >= title_only LIMIT 1)
          ORDER BY w.rating_average DESC, w.rating_count DESC, w.product_id LIMIT want) u
        GROUP BY u.product_id, u.rating_average, u.rating_count
    ) x (id, tier, n) ORDER BY x.n LIMIT want;
  ELSIF sort = 'best_selling' THEN
    RETURN QUERY SELECT x.id, x.tier, x.n FROM (
      SELECT u.product_id, 1, row_number() OVER (ORDER BY u.sales_count DESC, u.product_id)
        FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
          SELECT w.product_id, w.in_title, w.sales_count FROM (
            SELECT s.product_id, s.in_title, s.sales_count FROM search_postings s
            WHERE s.lexeme = lx.lexeme AND s.in_title >= title_only AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
            AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
            ORDER BY s.sales_count DESC, s.product_id LIMIT cap) w
          WHERE other IS NULL OR (SELECT true FROM search_postings o
            WHERE o.product_id = w.product_id AND o.lexeme = ANY (other) AND o.in_title >= title_only LIMIT 1)
          ORDER BY w.sales_count DESC, w.product_id LIMIT want) u
        GROUP BY u.product_id, u.sales_count
    ) x (id, tier, n) ORDER BY x.n LIMIT want;
  ELSE
    RAISE EXCEPTION 'unknown sort %', sort;
  END IF;
END $$;
