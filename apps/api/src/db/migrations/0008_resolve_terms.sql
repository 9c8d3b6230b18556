-- Query words resolved against the search index in one call (ADR 016). Generic plans are forced: the
-- planner keeps choosing per-call plans for these statements, and planning them cost ~4x running them
-- (0.5 ms against 0.1 ms), while the generic plan is the same index probes whatever the words.
--
-- One row per word, in order: its stem as the index stems it (null for a stop word), the title/tag
-- lexemes it matches (the word itself, and for the last word, still being typed, its most common
-- completions), their postings, and whether some product has it only in its summary or description.
CREATE FUNCTION tradeshelf_resolve_words(words text[], expansions integer)
RETURNS TABLE (n integer, word text, stem text, lexemes text[], df integer, in_body boolean)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT w.n::int, w.word, s.stem, coalesce(x.lexemes, '{}'::text[]), coalesce(x.df, 0)::int,
    s.stem IS NOT NULL AND EXISTS (
      SELECT 1 FROM search_lexicon l WHERE l.body_df > 0 AND (l.lexeme = s.stem OR (w.n = cardinality(words) AND (
        (l.lexeme >= s.stem AND l.lexeme < s.stem || chr(1114111))
        OR (l.lexeme >= w.word AND l.lexeme < w.word || chr(1114111))))))
  FROM unnest(words) WITH ORDINALITY AS w(word, n)
  CROSS JOIN LATERAL (SELECT (tsvector_to_array(to_tsvector('english', w.word)))[1] AS stem) s
  LEFT JOIN LATERAL (
    SELECT array_agg(m.lexeme ORDER BY m.df DESC, m.lexeme) AS lexemes, sum(m.df) AS df FROM (
      SELECT l.lexeme, l.df FROM search_lexicon l WHERE s.stem IS NOT NULL AND l.df > 0 AND (l.lexeme = s.stem OR (w.n = cardinality(words) AND (
        (l.lexeme >= s.stem AND l.lexeme < s.stem || chr(1114111))
        OR (l.lexeme >= w.word AND l.lexeme < w.word || chr(1114111)))))
      ORDER BY l.df DESC, l.lexeme LIMIT expansions) m
  ) x ON true
  ORDER BY w.n;
END $$;
--> statement-breakpoint
-- The words resolved (pass 0) and, when asked, the spelling fix in the same round trip (pass 1): each word of
-- three letters or more replaced by the closest title or tag word, and those words resolved. fix: 0 never,
-- 1 when a word is unknown (in no title, tag or description) or all are stop words, 2 always. No pass 1
-- when the fix changes nothing.
CREATE FUNCTION tradeshelf_resolve_terms(words text[], expansions integer, fix integer)
RETURNS TABLE (pass integer, n integer, word text, stem text, lexemes text[], df integer, in_body boolean)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  r record;
  stems integer := 0;
  missing boolean := false;
  corrected text[];
BEGIN
  FOR r IN SELECT * FROM tradeshelf_resolve_words(words, expansions) LOOP
    pass := 0; n := r.n; word := r.word; stem := r.stem; lexemes := r.lexemes; df := r.df; in_body := r.in_body;
    RETURN NEXT;
    IF r.stem IS NOT NULL THEN
      stems := stems + 1;
      missing := missing OR (cardinality(r.lexemes) = 0 AND NOT r.in_body);
    END IF;
  END LOOP;
  IF fix = 0 OR (fix = 1 AND stems > 0 AND NOT missing) THEN RETURN; END IF;
  corrected := ARRAY(
    SELECT CASE WHEN length(w.word) >= 3 THEN coalesce((
      SELECT t.term FROM search_terms t WHERE t.term % w.word
      ORDER BY similarity(t.term, w.word) DESC, t.frequency DESC LIMIT 1), w.word) ELSE w.word END
    FROM unnest(words) WITH ORDINALITY AS w(word, i) ORDER BY w.i);
  IF corrected = words THEN RETURN; END IF;
  RETURN QUERY SELECT 1, x.n, x.word, x.stem, x.lexemes, x.df, x.in_body
    FROM tradeshelf_resolve_words(corrected, expansions) x;
END $$;
--> statement-breakpoint
-- The first page of a one-word query, walked off the postings with cached plans (ADR 016): per lexeme of
-- the word (with its completions), an index range in the sort's order, merged; for relevance an exact
-- title first (tier 0). A statement built and planned per call spent ~0.6 ms parsing and planning to run
-- ~0.5 ms; these static statements keep one generic plan per session, and the category facet has its own
-- (a category-led index). Same order and ties as the statement search.ts builds for several words.
CREATE FUNCTION tradeshelf_walk_word(lexemes text[], sort text, want integer, exact_title text, cat text,
  knd text, plat text, min_amount integer, max_amount integer)
RETURNS TABLE (product_id text, tier integer, n bigint)
LANGUAGE plpgsql STABLE
-- Generic plans estimate ~50 postings a lexeme and would sort them all; the index order is the plan meant
-- here (stopping at `want` rows), so sorts and bitmap scans are priced out, and with them JIT.
SET plan_cache_mode = force_generic_plan SET enable_sort = off SET enable_bitmapscan = off SET jit = off
SET max_parallel_workers_per_gather = 0
AS $$
#variable_conflict use_column
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
        SELECT s.product_id, s.in_title, s.sales_count FROM search_postings s
        WHERE s.lexeme = lx.lexeme AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
        AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
        ORDER BY s.in_title DESC, s.sales_count DESC, s.product_id LIMIT want) u
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
        SELECT s.product_id, s.in_title, s.sales_count FROM search_postings s
        WHERE s.lexeme = lx.lexeme AND s.category = cat AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
        AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
        ORDER BY s.in_title DESC, s.sales_count DESC, s.product_id LIMIT want) u
      GROUP BY u.product_id, u.sales_count
      ) x (id, tier, n) ORDER BY x.tier, x.n LIMIT want + 5;
    END IF;
  ELSIF sort = 'newest' THEN
    RETURN QUERY SELECT x.id, x.tier, x.n FROM (
      SELECT u.product_id, 1, row_number() OVER (ORDER BY u.created_at DESC, u.product_id)
      FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
        SELECT s.product_id, s.in_title, s.created_at FROM search_postings s
        WHERE s.lexeme = lx.lexeme AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
        AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
        ORDER BY s.created_at DESC, s.product_id LIMIT want) u
      GROUP BY u.product_id, u.created_at
    ) x (id, tier, n) ORDER BY x.n LIMIT want;
  ELSIF sort = 'price_asc' THEN
    RETURN QUERY SELECT x.id, x.tier, x.n FROM (
      SELECT u.product_id, 1, row_number() OVER (ORDER BY u.sort_amount, u.product_id)
      FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
        SELECT s.product_id, s.in_title, s.sort_amount FROM search_postings s
        WHERE s.lexeme = lx.lexeme AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
        AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
        ORDER BY s.sort_amount, s.product_id LIMIT want) u
      GROUP BY u.product_id, u.sort_amount
    ) x (id, tier, n) ORDER BY x.n LIMIT want;
  ELSIF sort = 'price_desc' THEN
    RETURN QUERY SELECT x.id, x.tier, x.n FROM (
      SELECT u.product_id, 1, row_number() OVER (ORDER BY u.sort_amount DESC, u.product_id DESC)
      FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
        SELECT s.product_id, s.in_title, s.sort_amount FROM search_postings s
        WHERE s.lexeme = lx.lexeme AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
        AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
        ORDER BY s.sort_amount DESC, s.product_id DESC LIMIT want) u
      GROUP BY u.product_id, u.sort_amount
    ) x (id, tier, n) ORDER BY x.n LIMIT want;
  ELSIF sort = 'rating' THEN
    RETURN QUERY SELECT x.id, x.tier, x.n FROM (
      SELECT u.product_id, 1, row_number() OVER (ORDER BY u.rating_average DESC, u.rating_count DESC, u.product_id)
      FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
        SELECT s.product_id, s.in_title, s.rating_average, s.rating_count FROM search_postings s
        WHERE s.lexeme = lx.lexeme AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
        AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
        ORDER BY s.rating_average DESC, s.rating_count DESC, s.product_id LIMIT want) u
      GROUP BY u.product_id, u.rating_average, u.rating_count
    ) x (id, tier, n) ORDER BY x.n LIMIT want;
  ELSIF sort = 'best_selling' THEN
    RETURN QUERY SELECT x.id, x.tier, x.n FROM (
      SELECT u.product_id, 1, row_number() OVER (ORDER BY u.sales_count DESC, u.product_id)
      FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
        SELECT s.product_id, s.in_title, s.sales_count FROM search_postings s
        WHERE s.lexeme = lx.lexeme AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd) AND (plat IS NULL OR plat = ANY (s.platforms))
        AND (min_amount IS NULL OR s.sort_amount >= min_amount) AND (max_amount IS NULL OR s.sort_amount <= max_amount)
        ORDER BY s.sales_count DESC, s.product_id LIMIT want) u
      GROUP BY u.product_id, u.sales_count
    ) x (id, tier, n) ORDER BY x.n LIMIT want;
  ELSE
    RAISE EXCEPTION 'unknown sort %', sort;
  END IF;
END $$;
