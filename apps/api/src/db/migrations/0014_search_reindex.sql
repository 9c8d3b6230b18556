-- Existing catalogues: index again with the field lexemes (kind, platforms, asset classes) of ADR 023.
DELETE FROM search_postings;
--> statement-breakpoint
DELETE FROM search_lexicon;
--> statement-breakpoint
DELETE FROM search_terms;
--> statement-breakpoint
SELECT tradeshelf_search_add(array(SELECT p FROM products p WHERE p.is_active));
