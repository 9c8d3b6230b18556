import type { SavedSearch } from '@tradeshelf/contract';
import type { SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

export async function rows<T>(db: Tx, query: SQL): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

export interface SavedSearchRow {
  id: string;
  user_id: string;
  name: string;
  q: string;
  category: SavedSearch['category'];
  kind: SavedSearch['kind'];
  platform: SavedSearch['platform'];
  min_price: number | null;
  max_price: number | null;
  alerts: boolean;
  checked_until: Date | string;
  created_at: Date | string;
}

export const presentSavedSearch = (r: SavedSearchRow): SavedSearch => ({
  id: r.id,
  name: r.name,
  q: r.q,
  category: r.category,
  kind: r.kind,
  platform: r.platform,
  minPrice: r.min_price,
  maxPrice: r.max_price,
  alerts: r.alerts,
  createdAt: new Date(r.created_at).toISOString(),
});
