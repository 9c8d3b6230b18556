-- The account export reads each list a page at a time (ADR 060). A library's pages come in
-- (created_at, id) order: with the order in the user's index each page is a short range, not a
-- sort of the whole library. It replaces the index on user_id alone, whose lookups use its prefix.
CREATE INDEX "entitlements_user_created_idx" ON "entitlements" USING btree ("user_id","created_at","id");
--> statement-breakpoint
DROP INDEX "entitlements_user_idx";
