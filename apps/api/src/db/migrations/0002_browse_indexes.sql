DROP INDEX "products_category_idx";--> statement-breakpoint
CREATE INDEX "products_browse_sales_idx" ON "products" USING btree ("sales_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id") WHERE "products"."is_active";--> statement-breakpoint
CREATE INDEX "products_browse_cat_sales_idx" ON "products" USING btree ("category","sales_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id") WHERE "products"."is_active";--> statement-breakpoint
CREATE INDEX "products_browse_created_idx" ON "products" USING btree ("created_at" DESC NULLS FIRST,"id") WHERE "products"."is_active";--> statement-breakpoint
CREATE INDEX "products_browse_cat_created_idx" ON "products" USING btree ("category","created_at" DESC NULLS FIRST,"id") WHERE "products"."is_active";--> statement-breakpoint
CREATE INDEX "products_browse_price_idx" ON "products" USING btree ("sort_amount","id") WHERE "products"."is_active";--> statement-breakpoint
CREATE INDEX "products_browse_rating_idx" ON "products" USING btree ("rating_average" DESC NULLS FIRST,"rating_count" DESC NULLS FIRST,"id") WHERE "products"."is_active";