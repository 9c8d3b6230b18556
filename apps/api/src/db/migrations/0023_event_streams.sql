-- One row per event stream holding its last version (ADR 028): publishing takes the next version
-- with one upsert, whose row lock orders a stream's publishers, instead of an advisory lock and a
-- read of the log's maximum in two more round trips.
CREATE TABLE "event_streams" (
	"stream" text PRIMARY KEY NOT NULL,
	"version" integer NOT NULL
);
--> statement-breakpoint
INSERT INTO "event_streams" ("stream", "version")
  SELECT "stream", max("version") FROM "domain_events" GROUP BY "stream";
