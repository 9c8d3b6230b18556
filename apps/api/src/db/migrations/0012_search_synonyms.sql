-- Search that understands traders (ADR 023). Spelling fixes rank candidates by edit distance.
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;
--> statement-breakpoint
-- The traders' vocabulary (filled by search.sql): a word or phrase → the terms it must match, each a set
-- of lexemes (title/tag stems and '@…' field lexemes), any of which will do.
CREATE TABLE "search_synonyms" (
	"word" text NOT NULL,
	"term" integer NOT NULL,
	"lexemes" text[] NOT NULL,
	CONSTRAINT "search_synonyms_pk" PRIMARY KEY ("word", "term")
);
--> statement-breakpoint
-- Synonym words are spelling candidates too ('tradingveiw' → 'tradingview').
CREATE INDEX "search_synonyms_trgm_idx" ON "search_synonyms" USING gin ("word" gin_trgm_ops);
--> statement-breakpoint
-- Renamed tradeshelf_resolve_query (search.sql).
DROP FUNCTION IF EXISTS tradeshelf_resolve_terms(text[], integer, integer);
