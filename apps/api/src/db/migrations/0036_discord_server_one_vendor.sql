-- A Discord server belongs to one vendor (issue 26, ADR 047). The install used to record any server
-- id the query named, so a server may be held by several vendors, one of them by a typed id. Which
-- is the real one cannot be told from here: every holder of such a server loses it, and so do the
-- bindings that lean on it, and its real owner adds the bot again through Discord (which proves it).
-- Buyers keep the roles they hold (ADR 045); new buyers wait for the new binding.
DELETE FROM "community_bindings" b
WHERE b."guild_id" IN (
  SELECT "guild_id" FROM "vendor_discord_servers" GROUP BY "guild_id" HAVING count(*) > 1
);
--> statement-breakpoint
DELETE FROM "vendor_discord_servers" s
WHERE s."guild_id" IN (
  SELECT "guild_id" FROM "vendor_discord_servers" GROUP BY "guild_id" HAVING count(*) > 1
);
--> statement-breakpoint
-- A binding must name a server its vendor holds; none may point into another vendor's server.
DELETE FROM "community_bindings" b
WHERE NOT EXISTS (
  SELECT 1 FROM "vendor_discord_servers" s
  WHERE s."vendor_id" = b."vendor_id" AND s."guild_id" = b."guild_id"
);
--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_discord_servers_guild_key" ON "vendor_discord_servers" USING btree ("guild_id");
