// The developers module's part of exporting and deleting an account (ADR 060): API keys and webhook
// endpoints, never their secrets.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import * as store from '../../webhooks/store.ts';
import { VENDOR_OWNER } from './endpoints.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function developerExport(db: Tx, vendorId: string) {
  const keys = await db.execute<{
    id: string;
    name: string;
    environment: string;
    scopes: string[];
    created_at: Date;
    last_used_at: Date | null;
    revoked_at: Date | null;
  }>(sql`select id, name, environment, scopes, created_at, last_used_at, revoked_at
    from api_keys where vendor_id = ${vendorId} order by created_at, id`);
  const endpoints = await store.listEndpoints(db, { kind: VENDOR_OWNER, id: vendorId });
  return {
    apiKeys: keys.rows.map((k) => ({
      id: k.id,
      name: k.name,
      environment: k.environment,
      scopes: k.scopes,
      createdAt: iso(k.created_at)!,
      lastUsedAt: iso(k.last_used_at),
      revokedAt: iso(k.revoked_at),
    })),
    webhookEndpoints: endpoints.map((e) => ({
      id: e.id,
      url: e.url,
      eventTypes: e.event_types,
      enabled: e.enabled,
      createdAt: iso(e.created_at)!,
    })),
  };
}

/** In the deleting transaction: every key stops working and every endpoint goes, with its secret. */
export async function closeDeveloperAccess(tx: Tx, vendorId: string): Promise<void> {
  await tx.execute(sql`update api_keys set revoked_at = now()
    where vendor_id = ${vendorId} and revoked_at is null`);
  for (const e of await store.listEndpoints(tx, { kind: VENDOR_OWNER, id: vendorId }))
    await store.deleteEndpoint(tx, { kind: VENDOR_OWNER, id: vendorId }, e.id);
}
