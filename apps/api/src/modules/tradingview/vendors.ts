import { tradingViewMessages as m } from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../platform/errors.ts';
import { vendorIdOfUser } from '../catalog/index.ts';

/** The vendor the signed-in user runs; anyone else is refused (403). */
export async function vendorOf(deps: AppDeps, userId: string): Promise<string> {
  const vendorId = await vendorIdOfUser(deps.database.db, userId);
  if (!vendorId) throw new AppError('forbidden', m.vendorsOnly);
  return vendorId;
}
