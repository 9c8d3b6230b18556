import { vendorBundleMessages as m } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';

export const unknownBundle = () => new AppError('not_found', m.notFound);

export type OwnedBundleRow = {
  id: string;
  is_active: boolean;
  price_id: string | null;
  image_key: string | null;
};

/** The bundle, locked for this write, when this vendor owns it (404 otherwise: another's does not exist). */
export async function ownedBundle(
  tx: Tx,
  vendorId: string,
  bundleId: string,
): Promise<OwnedBundleRow> {
  const { rows } = await tx.execute<OwnedBundleRow>(sql`select id, is_active, price_id, image_key
    from bundles where id = ${bundleId} and vendor_id = ${vendorId} for update`);
  if (!rows[0]) throw unknownBundle();
  return rows[0];
}
