-- Existing catalogues: emptied here to be indexed again with the field lexemes (kind, platforms, asset
-- classes) of ADR 023. Since ADR 068 the migrator re-indexes after the journal, when it applies a
-- search.sql whose indexing part this database has not seen.
DELETE FROM search_postings;
--> statement-breakpoint
DELETE FROM search_lexicon;
--> statement-breakpoint
DELETE FROM search_terms;
