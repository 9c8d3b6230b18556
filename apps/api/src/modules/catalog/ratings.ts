// The catalogue's copy of each product's rating (ADR 036): the reviews module owns the reviews and
// sets it in the transaction that changed them, so cards, search's rating sort and product pages
// read it from the product row with no extra query.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export async function setProductRating(
  db: Tx,
  productId: string,
  rating: { average: number; count: number },
): Promise<void> {
  await db.execute(sql`update products set rating_average = ${rating.average},
      rating_count = ${rating.count}
    where id = ${productId}
      and (rating_average, rating_count) is distinct from (${rating.average}::numeric, ${rating.count}::int)`);
}
