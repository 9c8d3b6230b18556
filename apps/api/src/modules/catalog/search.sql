-- The search SQL functions, triggers and vocabulary (SEARCH.md describes the pipeline). The migrator
-- applies this file after the journal whenever it changed (ADR 068): it first drops every function this
-- file defined or defines, with CASCADE, so a signature may change. Every definition is CREATE OR
-- REPLACE, dependencies first: SQL-language bodies are checked when they are created.

-- The spelling vocabulary's words for one product (search_terms counts products per word).
CREATE OR REPLACE FUNCTION tradeshelf_title_words(title text, tags text[]) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT w FROM unnest(regexp_split_to_array(lower(title || ' ' || tradeshelf_immutable_join(tags)), '[^a-z0-9]+')) w
  WHERE length(w) >= 3 AND w !~ '^[0-9]+$'
$$;
--> statement-breakpoint
-- A product's structured fields as lexemes of their own ('@kind:indicator', '@platform:mt5',
-- '@asset:crypto'), posted beside its title and tag words so "mt5 scanner" is one postings walk. No word
-- stems to something starting with '@', and a completion range starts with a letter or digit.
CREATE OR REPLACE FUNCTION tradeshelf_field_lexemes(kind text, platforms text[], asset_classes text[]) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '@kind:' || kind
  UNION SELECT '@platform:' || p FROM unnest(platforms) p
  UNION SELECT '@asset:' || a FROM unnest(asset_classes) a
$$;
--> statement-breakpoint
-- Lexicon counts for a set of products: title/tag lexemes (weights A, B) and field lexemes count in df,
-- description-only ones (C) in body_df.
CREATE OR REPLACE FUNCTION tradeshelf_lexeme_counts(batch products[]) RETURNS TABLE (lexeme text, df integer, body_df integer)
LANGUAGE sql STABLE AS $$
  SELECT c.lexeme, sum(c.df)::int, sum(c.body_df)::int FROM (
    SELECT u.lexeme, count(*) FILTER (WHERE u.weights && array['A', 'B']) AS df,
           count(*) FILTER (WHERE NOT u.weights && array['A', 'B']) AS body_df
    FROM unnest(batch) r, unnest(r.search_vector) u GROUP BY u.lexeme
    UNION ALL
    SELECT f, count(*), 0 FROM unnest(batch) r, tradeshelf_field_lexemes(r.kind, r.platforms, r.asset_classes) f GROUP BY f
  ) c GROUP BY c.lexeme
$$;
--> statement-breakpoint
-- Indexes products: postings, lexicon counts, spelling vocabulary. Lexicon and vocabulary rows are locked
-- in key order, so concurrent catalogue edits queue, never deadlock.
CREATE OR REPLACE FUNCTION tradeshelf_search_add(added products[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_postings (lexeme, product_id, in_title, category, kind, platforms, sort_amount, sales_count,
                               created_at, rating_average, rating_count)
    SELECT u.lexeme, a.id, 'A' = ANY (u.weights), a.category, a.kind, a.platforms, a.sort_amount, a.sales_count,
           a.created_at, a.rating_average, a.rating_count
    FROM unnest(added) a, unnest(a.rank_vector) u
    UNION ALL
    SELECT f, a.id, false, a.category, a.kind, a.platforms, a.sort_amount, a.sales_count,
           a.created_at, a.rating_average, a.rating_count
    FROM unnest(added) a, tradeshelf_field_lexemes(a.kind, a.platforms, a.asset_classes) f;
  INSERT INTO search_lexicon AS l (lexeme, df, body_df)
    SELECT c.lexeme, c.df, c.body_df FROM tradeshelf_lexeme_counts(added) c ORDER BY c.lexeme
    ON CONFLICT (lexeme) DO UPDATE SET df = l.df + excluded.df, body_df = l.body_df + excluded.body_df;
  INSERT INTO search_terms AS t (term, frequency)
    SELECT w, count(*)::int FROM unnest(added) a, tradeshelf_title_words(a.title, a.tags) w GROUP BY w ORDER BY w
    ON CONFLICT (term) DO UPDATE SET frequency = t.frequency + excluded.frequency;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tradeshelf_search_remove(gone products[]) RETURNS void LANGUAGE sql AS $$
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
CREATE OR REPLACE FUNCTION tradeshelf_search_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tradeshelf_search_add(array(SELECT n::products FROM new_rows n WHERE n.is_active));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tradeshelf_search_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tradeshelf_search_remove(array(SELECT o::products FROM old_rows o WHERE o.is_active));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A changed text (title, tags, summary, description), structured field (kind, platforms, asset classes) or
-- visibility re-indexes the product; any other change to a column search filters or sorts on (a sale, a
-- new price, a rating) is copied onto its postings.
CREATE OR REPLACE FUNCTION tradeshelf_search_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tradeshelf_search_remove(array(
    SELECT o::products FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.is_active AND NOT (n.is_active AND n.search_vector = o.search_vector AND n.kind = o.kind
      AND n.platforms = o.platforms AND n.asset_classes = o.asset_classes)));
  PERFORM tradeshelf_search_add(array(
    SELECT n::products FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.is_active AND NOT (o.is_active AND n.search_vector = o.search_vector AND n.kind = o.kind
      AND n.platforms = o.platforms AND n.asset_classes = o.asset_classes)));
  UPDATE search_postings s
  SET category = n.category, sort_amount = n.sort_amount, sales_count = n.sales_count, created_at = n.created_at,
      rating_average = n.rating_average, rating_count = n.rating_count
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE s.product_id = n.id AND n.is_active AND o.is_active AND n.search_vector = o.search_vector
    AND n.kind = o.kind AND n.platforms = o.platforms AND n.asset_classes = o.asset_classes
    AND (n.category, n.sort_amount, n.sales_count, n.created_at, n.rating_average, n.rating_count)
        IS DISTINCT FROM (o.category, o.sort_amount, o.sales_count, o.created_at, o.rating_average, o.rating_count);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER products_search_insert AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tradeshelf_search_on_insert();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER products_search_update AFTER UPDATE ON products REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tradeshelf_search_on_update();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER products_search_delete AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tradeshelf_search_on_delete();
--> statement-breakpoint
-- A change above the next line re-indexes every product when it is applied; below it, it does not.
-- End of indexing: nothing below changes what is posted.

-- A synonym's terms as lexemes. Each element of `terms` is one term, its alternatives separated by spaces:
-- a word (stemmed as the index stems it) or a field lexeme ('@…'). A query word that is a synonym must
-- match every term, each by any of its alternatives: 'fvg' = 'fvg fair', 'fvg value', 'fvg gap' finds
-- "FVG" or "Fair Value Gap".
CREATE OR REPLACE FUNCTION tradeshelf_synonym_terms(terms text[]) RETURNS TABLE (term integer, lexemes text[])
LANGUAGE sql IMMUTABLE AS $$
  SELECT t.i::int, array(
    SELECT DISTINCT CASE WHEN a LIKE '@%' THEN a ELSE (tsvector_to_array(to_tsvector('english', a)))[1] END
    FROM unnest(string_to_array(t.alternatives, ' ')) a
    WHERE a LIKE '@%' OR to_tsvector('english', a) <> ''::tsvector)
  FROM unnest(terms) WITH ORDINALITY AS t(alternatives, i)
$$;
--> statement-breakpoint
-- The traders' vocabulary: product types, platforms and asset classes (singular and plural, names and
-- abbreviations) and common abbreviations. A key of several words ('metatrader 4') is matched before its
-- words are. '@bundle' asks for bundles instead of products.
DELETE FROM search_synonyms;
--> statement-breakpoint
INSERT INTO search_synonyms (word, term, lexemes)
SELECT k.word, s.term, s.lexemes
FROM (VALUES
  -- product types
  ('indicator', '{"indicator @kind:indicator"}'), ('indicators', '{"indicator @kind:indicator"}'),
  ('study', '{"study indicator @kind:indicator"}'), ('studies', '{"study indicator @kind:indicator"}'),
  ('scanner', '{"scanner screener @kind:scanner"}'), ('scanners', '{"scanner screener @kind:scanner"}'),
  ('screener', '{"scanner screener @kind:scanner"}'), ('screeners', '{"scanner screener @kind:scanner"}'),
  ('scan', '{"scan scanner screener @kind:scanner"}'), ('scans', '{"scan scanner screener @kind:scanner"}'),
  ('alert', '{"alert @kind:alert"}'), ('alerts', '{"alert @kind:alert"}'),
  ('notification', '{"notification alert @kind:alert"}'), ('notifications', '{"notification alert @kind:alert"}'),
  ('signal', '{"signal alert @kind:alert"}'), ('signals', '{"signal alert @kind:alert"}'),
  ('community', '{"community discord @kind:community"}'), ('communities', '{"community discord @kind:community"}'),
  ('discord', '{"discord community @kind:community"}'), ('discords', '{"discord community @kind:community"}'),
  ('chatroom', '{"chatroom community @kind:community"}'), ('chatrooms', '{"chatroom community @kind:community"}'),
  ('course', '{"course @kind:course"}'), ('courses', '{"course @kind:course"}'),
  ('masterclass', '{"masterclass course @kind:course"}'), ('bootcamp', '{"bootcamp course @kind:course"}'),
  ('tutorial', '{"tutorial course @kind:course"}'), ('tutorials', '{"tutorial course @kind:course"}'),
  ('lesson', '{"lesson course @kind:course"}'), ('lessons', '{"lesson course @kind:course"}'),
  ('training', '{"training course @kind:course"}'), ('education', '{"education course @kind:course"}'),
  ('app', '{"app @kind:app"}'), ('apps', '{"app @kind:app"}'),
  ('application', '{"application app @kind:app"}'), ('applications', '{"application app @kind:app"}'),
  ('software', '{"software app @kind:app"}'),
  ('bot', '{"bot robot @kind:app"}'), ('bots', '{"bot robot @kind:app"}'),
  ('robot', '{"bot robot @kind:app"}'), ('robots', '{"bot robot @kind:app"}'),
  ('ea', '{"ea @kind:app"}'), ('eas', '{"ea @kind:app"}'),
  ('expert advisor', '{"ea @kind:app"}'), ('expert advisors', '{"ea @kind:app"}'),
  ('cbot', '{"cbot @kind:app", "cbot ctrader @platform:ctrader"}'),
  ('cbots', '{"cbot @kind:app", "cbot ctrader @platform:ctrader"}'),
  ('bundle', '{@bundle}'), ('bundles', '{@bundle}'),
  -- platforms
  ('tradingview', '{"tradingview @platform:tradingview"}'), ('trading view', '{"tradingview @platform:tradingview"}'),
  ('tv', '{"tv tradingview @platform:tradingview"}'),
  ('pine', '{"pine tradingview @platform:tradingview"}'), ('pinescript', '{"pinescript tradingview @platform:tradingview"}'),
  ('pine script', '{"pinescript tradingview @platform:tradingview"}'),
  ('mt4', '{"mt4 @platform:mt4"}'), ('metatrader4', '{"mt4 @platform:mt4"}'), ('metatrader 4', '{"mt4 @platform:mt4"}'),
  ('meta trader 4', '{"mt4 @platform:mt4"}'), ('mt 4', '{"mt4 @platform:mt4"}'), ('mql4', '{"mt4 mql4 @platform:mt4"}'),
  ('mt5', '{"mt5 @platform:mt5"}'), ('metatrader5', '{"mt5 @platform:mt5"}'), ('metatrader 5', '{"mt5 @platform:mt5"}'),
  ('meta trader 5', '{"mt5 @platform:mt5"}'), ('mt 5', '{"mt5 @platform:mt5"}'), ('mql5', '{"mt5 mql5 @platform:mt5"}'),
  ('metatrader', '{"metatrader mt4 mt5 @platform:mt4 @platform:mt5"}'),
  ('meta trader', '{"metatrader mt4 mt5 @platform:mt4 @platform:mt5"}'),
  ('mt', '{"metatrader mt4 mt5 @platform:mt4 @platform:mt5"}'), ('mql', '{"mql4 mql5 @platform:mt4 @platform:mt5"}'),
  ('ninjatrader', '{"ninjatrader @platform:ninjatrader"}'), ('ninja trader', '{"ninjatrader @platform:ninjatrader"}'),
  ('ninja', '{"ninjatrader @platform:ninjatrader"}'), ('nt', '{"ninjatrader @platform:ninjatrader"}'),
  ('nt7', '{"ninjatrader @platform:ninjatrader"}'), ('nt8', '{"ninjatrader @platform:ninjatrader"}'),
  ('nt 8', '{"ninjatrader @platform:ninjatrader"}'), ('ninjatrader 8', '{"ninjatrader @platform:ninjatrader"}'),
  ('ninja trader 8', '{"ninjatrader @platform:ninjatrader"}'), ('ninjascript', '{"ninjatrader @platform:ninjatrader"}'),
  ('thinkorswim', '{"thinkorswim @platform:thinkorswim"}'), ('think or swim', '{"thinkorswim @platform:thinkorswim"}'),
  ('tos', '{"thinkorswim tos @platform:thinkorswim"}'), ('thinkscript', '{"thinkorswim thinkscript @platform:thinkorswim"}'),
  ('ctrader', '{"ctrader @platform:ctrader"}'), ('c trader', '{"ctrader @platform:ctrader"}'),
  ('tradestation', '{"tradestation @platform:tradestation"}'), ('trade station', '{"tradestation @platform:tradestation"}'),
  ('easylanguage', '{"tradestation easylanguage @platform:tradestation"}'),
  -- asset classes
  ('stock', '{"stock equity @asset:stocks"}'), ('stocks', '{"stock equity @asset:stocks"}'),
  ('equity', '{"stock equity @asset:stocks"}'), ('equities', '{"stock equity @asset:stocks"}'),
  ('shares', '{"stock share @asset:stocks"}'),
  ('option', '{"option @asset:options"}'), ('options', '{"option @asset:options"}'),
  ('future', '{"futures @asset:futures"}'), ('futures', '{"futures @asset:futures"}'),
  ('forex', '{"forex fx @asset:forex"}'), ('fx', '{"forex fx @asset:forex"}'),
  ('currency', '{"currency forex @asset:forex"}'), ('currencies', '{"currency forex @asset:forex"}'),
  ('crypto', '{"crypto @asset:crypto"}'), ('cryptos', '{"crypto @asset:crypto"}'),
  ('cryptocurrency', '{"crypto cryptocurrency @asset:crypto"}'), ('cryptocurrencies', '{"crypto cryptocurrency @asset:crypto"}'),
  ('bitcoin', '{"bitcoin btc @asset:crypto"}'), ('btc', '{"bitcoin btc @asset:crypto"}'),
  ('ethereum', '{"ethereum eth @asset:crypto"}'), ('eth', '{"ethereum eth @asset:crypto"}'),
  ('altcoin', '{"altcoin @asset:crypto"}'), ('altcoins', '{"altcoin @asset:crypto"}'),
  ('index', '{"index @asset:indices"}'), ('indices', '{"index @asset:indices"}'), ('indexes', '{"index @asset:indices"}'),
  ('commodity', '{"commodity @asset:commodities"}'), ('commodities', '{"commodity @asset:commodities"}'),
  ('gold', '{"gold @asset:commodities"}'), ('oil', '{"oil @asset:commodities"}'),
  -- trading abbreviations
  ('smc', '{"smc smart", "smc money", "smc concepts"}'),
  ('fvg', '{"fvg fair", "fvg value", "fvg gap"}'),
  ('bos', '{"bos break", "bos structure"}'),
  ('poc', '{"poc point", "poc control"}'),
  ('vp', '{"vp volume", "vp profile"}'),
  ('uoa', '{"uoa unusual", "uoa options", "uoa activity"}'),
  ('iv', '{"iv implied", "iv volatility"}'),
  ('gex', '{"gex gamma"}'),
  ('dca', '{"dca dollar", "dca cost", "dca averaging"}'),
  ('orb', '{"orb opening", "orb range", "orb breakout"}'),
  ('l2', '{"l2 level", "l2 2"}'),
  ('orderflow', '{"orderflow order", "orderflow flow"}'), ('order flow', '{"orderflow order", "orderflow flow"}')
) AS k(word, terms)
CROSS JOIN LATERAL tradeshelf_synonym_terms(k.terms::text[]) s;
--> statement-breakpoint
-- Query words with the phrases the vocabulary knows joined into one word each ('metatrader', '5' →
-- 'metatrader 5'), longest first. One statement probes every two- and three-word run; most queries have
-- none, and one word needs no probe.
CREATE OR REPLACE FUNCTION tradeshelf_join_phrases(words text[]) RETURNS text[] LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  total integer := coalesce(cardinality(words), 0);
  -- start * 4 + length of each known phrase
  known integer[];
  joined text[] := '{}';
  i integer := 1;
  len integer;
BEGIN
  IF total < 2 THEN RETURN words; END IF;
  known := ARRAY(
    SELECT g.i * 4 + l.len FROM generate_series(1, total - 1) AS g(i) CROSS JOIN (VALUES (2), (3)) AS l(len)
    WHERE g.i + l.len - 1 <= total
      AND (SELECT true FROM search_synonyms s WHERE s.word = array_to_string(words[g.i:g.i + l.len - 1], ' ') LIMIT 1));
  IF cardinality(known) = 0 THEN RETURN words; END IF;
  WHILE i <= total LOOP
    len := CASE WHEN i * 4 + 3 = ANY (known) THEN 3 WHEN i * 4 + 2 = ANY (known) THEN 2 ELSE 1 END;
    joined := joined || array_to_string(words[i:i + len - 1], ' ');
    i := i + len;
  END LOOP;
  RETURN joined;
END $$;
--> statement-breakpoint
-- Query words resolved against the search index (ADRs 016, 023). Generic plans are forced: the planner
-- kept choosing per-call plans, which cost ~4x running them, while the generic plan is the same index
-- probes whatever the words.
--
-- One row per term, in order: a synonym gives one row per term of its expansion (`term`), any other word
-- one row with its stem as the index stems it (null for a stop word). `lexemes`: the title/tag and field
-- lexemes it matches that some product has (for the last word, still being typed, also its most common
-- completions), `df` their postings, `in_body` whether some product has it only in its summary or
-- description. A synonym's text lexemes (`body_lexemes`, null for other words) and field lexemes
-- (`fields`) come as listed, whether any product has them or not.
CREATE OR REPLACE FUNCTION tradeshelf_resolve_words(words text[], expansions integer)
RETURNS TABLE (n integer, term integer, word text, stem text, lexemes text[], df integer, in_body boolean,
               body_lexemes text[], fields text[])
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  joined text[] := tradeshelf_join_phrases(words);
  last integer := cardinality(joined);
BEGIN
  RETURN QUERY
  SELECT w.n::int, s.term, w.word, w.word, coalesce(x.lexemes, '{}'::text[]), coalesce(x.df, 0)::int,
    coalesce(x.in_body, false),
    array(SELECT a FROM unnest(s.lexemes) a WHERE a NOT LIKE '@%'),
    array(SELECT a FROM unnest(s.lexemes) a WHERE a LIKE '@%')
  FROM unnest(joined) WITH ORDINALITY AS w(word, n)
  -- OFFSET 0: probed per word by key, not hashed whole.
  CROSS JOIN LATERAL (SELECT s.term, s.lexemes FROM search_synonyms s WHERE s.word = w.word OFFSET 0) s
  CROSS JOIN LATERAL (
    SELECT array_agg(l.lexeme ORDER BY l.df DESC, l.lexeme) FILTER (WHERE l.df > 0) AS lexemes,
      sum(l.df) AS df, bool_or(l.body_df > 0) AS in_body
    FROM search_lexicon l WHERE l.lexeme = ANY (s.lexemes)) x
  UNION ALL
  SELECT w.n::int, 1, w.word, st.stem, coalesce(x.lexemes, '{}'::text[]), coalesce(x.df, 0)::int,
    st.stem IS NOT NULL AND EXISTS (
      SELECT 1 FROM search_lexicon l WHERE l.body_df > 0 AND (l.lexeme = st.stem OR (w.n = last AND (
        (l.lexeme >= st.stem AND l.lexeme < st.stem || chr(1114111))
        OR (l.lexeme >= w.word AND l.lexeme < w.word || chr(1114111)))))),
    NULL::text[], '{}'::text[]
  FROM unnest(joined) WITH ORDINALITY AS w(word, n)
  CROSS JOIN LATERAL (SELECT (tsvector_to_array(to_tsvector('english', w.word)))[1] AS stem) st
  LEFT JOIN LATERAL (
    SELECT array_agg(m.lexeme ORDER BY m.df DESC, m.lexeme) AS lexemes, sum(m.df) AS df FROM (
      SELECT l.lexeme, l.df FROM search_lexicon l WHERE st.stem IS NOT NULL AND l.df > 0 AND (l.lexeme = st.stem OR (w.n = last AND (
        (l.lexeme >= st.stem AND l.lexeme < st.stem || chr(1114111))
        OR (l.lexeme >= w.word AND l.lexeme < w.word || chr(1114111)))))
      ORDER BY l.df DESC, l.lexeme LIMIT expansions) m
  ) x ON true
  -- A scalar probe, not NOT EXISTS: an anti-join would hash the whole vocabulary.
  WHERE (SELECT true FROM search_synonyms s WHERE s.word = w.word LIMIT 1) IS NULL
  ORDER BY 1, 2;
END $$;
--> statement-breakpoint
-- The closest title/tag word or single-word synonym to a misspelt word: fewest edits (at most one per
-- four letters, plus one), then trigram similarity, then how common. Trigram similarity alone ranked
-- 'trading' above 'tradingview' for 'tradingveiw'. Title/tag words are candidates when they share a fifth
-- of their trigrams (the default 0.3 misses swapped letters in short words: 'crpyto' and 'crypto' share
-- 0.27), found through the trigram index; the few synonym keys are all measured, which costs less than
-- matching their trigrams.
CREATE OR REPLACE FUNCTION tradeshelf_correct_word(typed text) RETURNS text LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan SET pg_trgm.similarity_threshold = 0.2 AS $$
DECLARE
  bound integer := 1 + length(typed) / 4;
BEGIN
  RETURN (
    SELECT c.w FROM (
      SELECT t.term AS w, t.frequency AS f, levenshtein_less_equal(t.term, typed, bound) AS d
      FROM search_terms t WHERE t.term % typed
      UNION ALL
      SELECT s.word, 0, levenshtein_less_equal(s.word, typed, bound) FROM search_synonyms s
      WHERE s.term = 1 AND abs(length(s.word) - length(typed)) <= bound AND strpos(s.word, ' ') = 0
    ) c
    WHERE c.d <= bound
    ORDER BY c.d, similarity(c.w, typed) DESC, c.f DESC, c.w
    LIMIT 1);
END $$;
--> statement-breakpoint
-- A query resolved (pass 0) and, when asked, its spelling fixed in the same round trip (pass 1): each
-- word found nowhere (no title, tag, field, synonym or description has it) of three letters or more is
-- replaced by the closest known word, and the result resolved again. fix: 0 never, 1 when a word is
-- found nowhere or all are stop words, 2 always. No pass 1 when the fix changes nothing.
CREATE OR REPLACE FUNCTION tradeshelf_resolve_query(words text[], expansions integer, fix integer)
RETURNS TABLE (pass integer, n integer, term integer, word text, stem text, lexemes text[], df integer,
               in_body boolean, body_lexemes text[], fields text[])
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  r record;
  stems integer := 0;
  typed text[] := '{}';
  known boolean[] := '{}';
  corrected text[];
BEGIN
  FOR r IN SELECT * FROM tradeshelf_resolve_words(words, expansions) LOOP
    pass := 0; n := r.n; term := r.term; word := r.word; stem := r.stem; lexemes := r.lexemes; df := r.df;
    in_body := r.in_body; body_lexemes := r.body_lexemes; fields := r.fields;
    RETURN NEXT;
    IF r.term = 1 THEN
      typed := typed || r.word;
      known := known || (r.stem IS NULL OR r.body_lexemes IS NOT NULL OR cardinality(r.lexemes) > 0 OR r.in_body);
      IF r.stem IS NOT NULL THEN stems := stems + 1; END IF;
    END IF;
  END LOOP;
  IF fix = 0 OR (fix = 1 AND stems > 0 AND NOT (false = ANY (known))) THEN RETURN; END IF;
  corrected := ARRAY(
    SELECT CASE WHEN x.ok OR length(x.w) < 3 THEN x.w ELSE coalesce(tradeshelf_correct_word(x.w), x.w) END
    FROM unnest(typed, known) WITH ORDINALITY AS x(w, ok, i) ORDER BY x.i);
  IF corrected = typed THEN RETURN; END IF;
  RETURN QUERY SELECT 1, x.* FROM tradeshelf_resolve_words(string_to_array(array_to_string(corrected, ' '), ' '), expansions) x;
END $$;
--> statement-breakpoint
-- Every product holding all the terms in title, tags or fields, in the sort's order: for relevance, how
-- many terms are in the title, then how many in title or tags, then sales. Run when a walk cannot fill
-- the page. The rarest term's postings (`lexemes`, filters applied) are aggregated per product off a
-- covering index; each other term (o1…o4, null when absent) is a primary-key seek per lexeme and
-- product, giving 4 + 2 × in title + 1 × in title or tags, null when the product lacks it: hashing every
-- posting of a field ('@kind:indicator', 16 000 at 100 000 products) to prove an intersection empty cost
-- 75-130 ms. Terms past the fifth (`rest`, lexemes joined by spaces) are checked, not ranked. A function
-- so that JIT stays off: a statement joining large posting sets was estimated at millions of rows, and
-- JIT spent ~1 s compiling.
CREATE OR REPLACE FUNCTION tradeshelf_intersect(lexemes text[], o1 text[], o2 text[], o3 text[], o4 text[],
  rest text[], sort text, want integer, cat text, knd text, plat text, min_amount integer, max_amount integer)
RETURNS TABLE (product_id text) LANGUAGE plpgsql STABLE
-- ROWS: a page's worth. The default estimate (1 000 rows) made the card joins around a call hash joins
-- over sequential scans of products, vendors and prices at 10 000 products (p95 150 ms; 16 ms with it).
ROWS 25
SET plan_cache_mode = force_generic_plan SET enable_bitmapscan = off SET jit = off
SET max_parallel_workers_per_gather = 0
AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  -- MATERIALIZED: a generic plan would re-run an inlined aggregate for every row it joins.
  WITH d AS MATERIALIZED (
    SELECT s.product_id, bool_or(s.in_title)::int AS t, bool_or(s.lexeme NOT LIKE '@%')::int AS x,
      max(s.sales_count) AS sales_count, max(s.sort_amount) AS sort_amount
    FROM search_postings s
    WHERE s.lexeme = ANY (lexemes) AND (cat IS NULL OR s.category = cat) AND (knd IS NULL OR s.kind = knd)
      AND (plat IS NULL OR plat = ANY (s.platforms)) AND (min_amount IS NULL OR s.sort_amount >= min_amount)
      AND (max_amount IS NULL OR s.sort_amount <= max_amount)
    GROUP BY s.product_id),
  e AS MATERIALIZED (
    SELECT d.*,
      CASE WHEN o1 IS NULL THEN 4 ELSE (SELECT 4 + 2 * bool_or(p.in_title)::int + bool_or(p.lexeme NOT LIKE '@%')::int
        FROM unnest(o1) AS l(lexeme) JOIN search_postings p ON p.product_id = d.product_id AND p.lexeme = l.lexeme) END AS v1,
      CASE WHEN o2 IS NULL THEN 4 ELSE (SELECT 4 + 2 * bool_or(p.in_title)::int + bool_or(p.lexeme NOT LIKE '@%')::int
        FROM unnest(o2) AS l(lexeme) JOIN search_postings p ON p.product_id = d.product_id AND p.lexeme = l.lexeme) END AS v2,
      CASE WHEN o3 IS NULL THEN 4 ELSE (SELECT 4 + 2 * bool_or(p.in_title)::int + bool_or(p.lexeme NOT LIKE '@%')::int
        FROM unnest(o3) AS l(lexeme) JOIN search_postings p ON p.product_id = d.product_id AND p.lexeme = l.lexeme) END AS v3,
      CASE WHEN o4 IS NULL THEN 4 ELSE (SELECT 4 + 2 * bool_or(p.in_title)::int + bool_or(p.lexeme NOT LIKE '@%')::int
        FROM unnest(o4) AS l(lexeme) JOIN search_postings p ON p.product_id = d.product_id AND p.lexeme = l.lexeme) END AS v4
    FROM d)
  SELECT e.product_id FROM e
  WHERE e.v1 IS NOT NULL AND e.v2 IS NOT NULL AND e.v3 IS NOT NULL AND e.v4 IS NOT NULL
    AND (rest IS NULL OR NOT EXISTS (SELECT 1 FROM unnest(rest) r WHERE (SELECT true FROM search_postings p
      WHERE p.product_id = e.product_id AND p.lexeme = ANY (string_to_array(r, ' ')) LIMIT 1) IS NULL))
  ORDER BY
    CASE WHEN sort = 'relevance' THEN e.t + (e.v1 >> 1 & 1) + (e.v2 >> 1 & 1) + (e.v3 >> 1 & 1) + (e.v4 >> 1 & 1) END DESC,
    CASE WHEN sort = 'relevance' THEN e.x + (e.v1 & 1) + (e.v2 & 1) + (e.v3 & 1) + (e.v4 & 1) END DESC,
    CASE WHEN sort IN ('relevance', 'best_selling') THEN e.sales_count END DESC,
    -- Read from the product only for the sorts that need them: they are on no covering index.
    CASE WHEN sort = 'newest' THEN (SELECT p.created_at FROM products p WHERE p.id = e.product_id) END DESC,
    CASE WHEN sort = 'price_asc' THEN e.sort_amount END,
    CASE WHEN sort = 'price_desc' THEN e.sort_amount END DESC,
    CASE WHEN sort = 'rating' THEN (SELECT p.rating_average FROM products p WHERE p.id = e.product_id) END DESC,
    CASE WHEN sort = 'rating' THEN (SELECT p.rating_count FROM products p WHERE p.id = e.product_id) END DESC,
    CASE WHEN sort = 'price_desc' THEN e.product_id END DESC,
    e.product_id
  LIMIT want;
END $$;
--> statement-breakpoint
-- How many products hold every term, counted up to `cap` among the first `scan` postings of the rarest
-- term, in each of `cats` (null: in all categories, one row with a null category): the alternatives a
-- search that found nothing offers, a hint bounded in cost. `lexemes`: the rarest term's; `others`: each
-- other term's lexemes joined by spaces. Off the postings in index order (the category-led one per
-- category), one call for every category: each call switches this function's settings.
CREATE OR REPLACE FUNCTION tradeshelf_count_matches(lexemes text[], others text[], cats text[], cap integer, scan integer)
RETURNS TABLE (category text, n integer) LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan SET enable_sort = off SET enable_bitmapscan = off SET jit = off
SET max_parallel_workers_per_gather = 0
AS $$
#variable_conflict use_column
BEGIN
  IF cats IS NULL THEN
    RETURN QUERY SELECT NULL::text, (SELECT count(DISTINCT x.product_id)::int FROM (
      SELECT s.product_id FROM (SELECT s.product_id FROM search_postings s WHERE s.lexeme = ANY (lexemes) LIMIT scan) s
      WHERE coalesce((SELECT bool_and(coalesce((SELECT true FROM search_postings o WHERE o.product_id = s.product_id
          AND o.lexeme = ANY (string_to_array(t, ' ')) LIMIT 1), false)) FROM unnest(others) t), true)
      LIMIT cap) x);
    RETURN;
  END IF;
  RETURN QUERY SELECT c.c, (SELECT count(DISTINCT x.product_id)::int FROM (
    SELECT s.product_id FROM (
      SELECT s.product_id FROM search_postings s WHERE s.lexeme = ANY (lexemes) AND s.category = c.c LIMIT scan) s
    WHERE coalesce((SELECT bool_and(coalesce((SELECT true FROM search_postings o WHERE o.product_id = s.product_id
        AND o.lexeme = ANY (string_to_array(t, ' ')) LIMIT 1), false)) FROM unnest(others) t), true)
    LIMIT cap) x)
  FROM unnest(cats) AS c(c);
END $$;
--> statement-breakpoint
-- The first page of a one- or two-word query, walked off the postings with cached plans (ADR 016): per
-- lexeme of the driving word, an index range in the sort's order, at most `cap` postings (null: all),
-- each checked for the other word (if any) by a primary-key probe, stopping at `want`; merged, and for
-- relevance an exact title first (tier 0), then title words, then title/tag words before field lexemes
-- (ADR 023), then sales. `title_only` (relevance, two words that can both be in a title): products with
-- both words in the title; search.ts ranks the whole intersection when these do not fill the page. A
-- statement built and planned per call spent ~0.6 ms parsing and planning to run ~0.5 ms; these keep one
-- generic plan per connection (the category facet has its own, on a category-led index). Same order and
-- ties as the statement search.ts builds for three words or more.
CREATE OR REPLACE FUNCTION tradeshelf_walk(lexemes text[], other text[], title_only boolean, sort text, want integer,
  cap integer, exact_title text, cat text, knd text, plat text, min_amount integer, max_amount integer)
RETURNS TABLE (product_id text, tier integer, n bigint)
LANGUAGE plpgsql STABLE
ROWS 25
-- Generic plans estimate ~50 postings a lexeme and would bitmap-scan and sort them all; the index order
-- is the plan meant here (stopping at `want`), so sorts and bitmap scans are priced out, and with them JIT
-- (which those prices would trigger) and parallel workers.
SET plan_cache_mode = force_generic_plan SET enable_sort = off SET enable_bitmapscan = off SET jit = off
SET max_parallel_workers_per_gather = 0
AS $$
#variable_conflict use_column
BEGIN
  IF sort = 'relevance' THEN
    -- An exact title, then title matches, then tag matches, then field matches, then sales.
    IF cat IS NULL THEN
      RETURN QUERY SELECT x.id, x.tier, x.n FROM (
        (SELECT e.id, 0, 0::bigint FROM (
          -- Fenced (OFFSET 0): found through the title index, then sorted, never a walk of a sales index.
          SELECT p.id, p.sales_count FROM products p WHERE lower(p.title) = exact_title AND p.is_active AND (cat IS NULL OR p.category = cat) AND (knd IS NULL OR p.kind = knd) AND (plat IS NULL OR plat = ANY (p.platforms))
            AND (min_amount IS NULL OR p.sort_amount >= min_amount) AND (max_amount IS NULL OR p.sort_amount <= max_amount) OFFSET 0) e
         ORDER BY e.sales_count DESC, e.id LIMIT 5)
        UNION ALL
        SELECT u.product_id, 1, row_number() OVER (ORDER BY bool_or(u.in_title) DESC, bool_or(u.textual) DESC, u.sales_count DESC, u.product_id)
        FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
          SELECT w.product_id, w.in_title, w.sales_count, lx.lexeme NOT LIKE '@%' AS textual FROM (
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
        SELECT u.product_id, 1, row_number() OVER (ORDER BY bool_or(u.in_title) DESC, bool_or(u.textual) DESC, u.sales_count DESC, u.product_id)
        FROM unnest(lexemes) AS lx(lexeme) CROSS JOIN LATERAL (
          SELECT w.product_id, w.in_title, w.sales_count, lx.lexeme NOT LIKE '@%' AS textual FROM (
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
