// Use case: the buyer's billing name and address, which receipts print (ADR 060).
import type { BillingDetails } from '@tradeshelf/contract';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { users } from './tables.ts';

export async function billingOf(db: Tx, userId: string): Promise<BillingDetails> {
  const [row] = await db
    .select({ name: users.billingName, address: users.billingAddress })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? { name: '', address: '' };
}

export async function saveBilling(
  db: Tx,
  userId: string,
  body: BillingDetails,
): Promise<BillingDetails> {
  await db
    .update(users)
    .set({ billingName: body.name, billingAddress: body.address, updatedAt: new Date() })
    .where(eq(users.id, userId));
  return billingOf(db, userId);
}
