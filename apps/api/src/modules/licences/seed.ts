// Demo data: every demo app has its terms and a real downloadable build, and the demo buyer holds a
// licence with one activation, so the apps page shows everything on first start (ADR 032).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORM_VENDOR_URL } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Storage } from '../../integrations/storage/port.ts';
import { newId } from '../../lib.ts';
import { Sealer } from '../../platform/seal.ts';
import { addPublishedFile } from '../deliverables/index.ts';
import { newKey } from './keys.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A small real program (activate, validate, verify the signature, cache): the demo apps' build. */
export const DEMO_BUILD = {
  version: '1.0.0',
  fileName: 'tradeshelf-licence-demo-1.0.0.zip',
  storageKey: 'licences/builds/demo/tradeshelf-licence-demo-1.0.0.zip',
};

const demoBuildFile = () => readFileSync(path.join(here, 'demo-build', DEMO_BUILD.fileName));

/** Puts the demo build in storage unless it is there (every start; the seed CLI too). */
export async function storeDemoBuild(storage: Storage): Promise<boolean> {
  if (await storage.exists(DEMO_BUILD.storageKey)) return false;
  await storage.put(DEMO_BUILD.storageKey, demoBuildFile(), 'application/zip');
  return true;
}

/** The demo buyer's licence: a MetaTrader EA, active on one trading account. */
const DEMO_LICENCE = {
  productSlug: 'grid-guardian-ea',
  account: '50012345',
  name: 'IC Markets live',
};

/**
 * Idempotent. Demo apps (not the platform's plans) get licence terms by platform (MetaTrader apps
 * bind to an account number, NinjaTrader add-ons to a machine id, others take any preset) and the
 * demo build; the demo buyer gets a licence of their own unless they hold one.
 */
export async function seedDemoLicences(
  db: Db,
  options: { buyerEmail: string; codeSecret: string },
): Promise<void> {
  await db.execute(sql`insert into licence_products (product_id, max_activations, binding)
    select p.id, case when p.slug = 'trade-copier-pro' then 5 else 3 end,
      case when p.platforms && array['mt4', 'mt5']::text[] then 'metatrader_account'
           when 'ninjatrader' = any(p.platforms) then 'ninjatrader_machine' end
    from products p join vendors v on v.id = p.vendor_id
    where p.kind = 'app' and v.vendor_url <> ${PLATFORM_VENDOR_URL}
    on conflict (product_id) do nothing`);
  // A demo app without a demo delivery of its own (issue 29) gets this build as its Windows
  // version (ADR 053): an Expert Advisor must not offer a Windows program beside its EA files.
  const file = demoBuildFile();
  const apps = await db.execute<{ id: string }>(sql`select p.id from products p
    join vendors v on v.id = p.vendor_id
    where p.kind = 'app' and v.vendor_url <> ${PLATFORM_VENDOR_URL}
      and not exists (select 1 from deliverable_versions d
        where d.product_id = p.id and d.id <> (${'bld_demo_'} || p.id))
    order by p.id`);
  for (const app of apps.rows)
    await addPublishedFile(db, {
      id: `bld_demo_${app.id}`,
      productId: app.id,
      platform: 'windows',
      version: DEMO_BUILD.version,
      notes: 'The first release.',
      fileName: DEMO_BUILD.fileName,
      storageKey: DEMO_BUILD.storageKey,
      bytes: file,
      publishedAt: new Date(Date.now() - 3 * 86_400_000),
      current: true,
    });

  const found = await db.execute<{ user_id: string; product_id: string; vendor_id: string }>(sql`
    select u.id as user_id, p.id as product_id, p.vendor_id
    from users u, products p
    where lower(u.email) = lower(${options.buyerEmail}) and p.slug = ${DEMO_LICENCE.productSlug}
      and p.kind = 'app'
      and not exists (select 1 from licences l where l.user_id = u.id)
    limit 1`);
  const target = found.rows[0];
  if (!target) return;
  const id = newId('lic');
  const key = newKey(new Sealer(options.codeSecret));
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into licences (id, user_id, product_id, vendor_id, key_hash,
        key_sealed, max_activations, binding, issued_at)
      select ${id}, ${target.user_id}, ${target.product_id}, ${target.vendor_id}, ${key.hash},
        ${key.sealed}, coalesce(s.max_activations, 3), s.binding, now() - interval '14 days'
      from (select 1) one left join licence_products s on s.product_id = ${target.product_id}`);
    await tx.execute(sql`insert into licence_activations (id, licence_id, binding, fingerprint, name,
        activated_at, last_seen_at)
      values (${newId('act')}, ${id}, 'metatrader_account', ${DEMO_LICENCE.account},
        ${DEMO_LICENCE.name}, now() - interval '13 days', now() - interval '2 hours')`);
    await tx.execute(sql`insert into licence_events (licence_id, type, detail, at) values
      (${id}, 'issued', 'Granted with the demo data.', now() - interval '14 days'),
      (${id}, 'activated', ${`Activated on “${DEMO_LICENCE.name}” (MetaTrader account •••• ${DEMO_LICENCE.account.slice(-4)}).`},
        now() - interval '13 days')`);
  });
}
