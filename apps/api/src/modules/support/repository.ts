import type { Tx } from '../../db/client.ts';
import { supportMessages } from './tables.ts';

export type NewSupportMessage = typeof supportMessages.$inferInsert;

export async function insertMessage(tx: Tx, row: NewSupportMessage): Promise<void> {
  await tx.insert(supportMessages).values(row);
}
