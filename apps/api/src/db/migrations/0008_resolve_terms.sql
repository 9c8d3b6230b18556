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
