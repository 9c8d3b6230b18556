import type { Tx } from '../../db/client.ts';
import { setProductRating } from '../catalog/index.ts';
import { presentSummary } from './presenter.ts';
import { recountProduct } from './repository.ts';

/**
 * Recounts a product's published reviews and hands the average and count to the catalogue, in the
 * caller's transaction (which holds the product's counts lock): cards and search agree at commit.
 */
export async function refreshProductRating(tx: Tx, productId: string) {
  const summary = presentSummary(await recountProduct(tx, productId));
  await setProductRating(tx, productId, { average: summary.average, count: summary.count });
  return summary;
}
