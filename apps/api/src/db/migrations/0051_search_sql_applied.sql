-- search.sql is applied after the journal whenever it changed (ADR 068): what a database applied last,
-- so an unchanged file costs one read, a query change no re-index, and a dropped function is dropped.
CREATE TABLE "search_sql_applied" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"source_sha256" text NOT NULL,
	"index_sha256" text NOT NULL,
	"function_names" text[] NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_sql_applied_one_row" CHECK ("id")
);
