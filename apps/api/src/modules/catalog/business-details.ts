// Use case: the seller details a vendor's invoices print (ADR 060): legal name, address, tax
// number and tax note. Validation is the contract's; empty prints nothing.
import type { BusinessDetails } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export interface SellerDetails extends BusinessDetails {
  displayName: string;
}

export async function sellerDetailsOf(db: Tx, vendorId: string): Promise<SellerDetails | null> {
  const { rows } = await db.execute<{
    display_name: string;
    business_name: string;
    business_address: string;
    tax_id: string;
    tax_note: string;
  }>(sql`select display_name, business_name, business_address, tax_id, tax_note
    from vendors where id = ${vendorId}`);
  const r = rows[0];
  if (!r) return null;
  return {
    displayName: r.display_name,
    businessName: r.business_name,
    businessAddress: r.business_address,
    taxId: r.tax_id,
    taxNote: r.tax_note,
  };
}

export async function businessDetails(db: Tx, vendorId: string): Promise<BusinessDetails> {
  const found = await sellerDetailsOf(db, vendorId);
  return {
    businessName: found?.businessName ?? '',
    businessAddress: found?.businessAddress ?? '',
    taxId: found?.taxId ?? '',
    taxNote: found?.taxNote ?? '',
  };
}

export async function saveBusinessDetails(
  db: Tx,
  vendorId: string,
  body: BusinessDetails,
): Promise<BusinessDetails> {
  await db.execute(sql`update vendors set business_name = ${body.businessName},
      business_address = ${body.businessAddress}, tax_id = ${body.taxId}, tax_note = ${body.taxNote}
    where id = ${vendorId}`);
  return businessDetails(db, vendorId);
}
