-- Once the first copy of search.sql. Since ADR 068 the migrator applies search.sql itself after the
-- journal: this only drops the search functions of its time, with the triggers that use them.
DROP FUNCTION IF EXISTS tradeshelf_title_words CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_field_lexemes CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_lexeme_counts CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_search_add CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_search_remove CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_search_on_insert CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_search_on_delete CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_search_on_update CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_synonym_terms CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_join_phrases CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_resolve_words CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_correct_word CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_resolve_query CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_intersect CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_count_matches CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tradeshelf_walk CASCADE;
