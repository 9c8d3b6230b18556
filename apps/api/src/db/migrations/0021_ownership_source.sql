-- The catalogue's ownership subscriber looks a purchase's grant up by its source (ADR 028).
CREATE INDEX IF NOT EXISTS "ownerships_source_idx" ON "ownerships" USING btree ("source");
