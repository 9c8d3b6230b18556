import { licencesRoutes, type Licence } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.ts';
import { verifies } from '../../../test/licences.ts';
import { seedAll } from '../../db/seed.ts';
import { demoDeliveries, storeDemoDeliverables } from '../deliverables/seed.ts';
import { storeDemoBuild } from './seed.ts';
import { userToken } from '../../../test/factories/users.ts';

// The demo data on a database of its own: the demo catalogue is seeded only into an empty one.

const t = useTestApp();

async function onlyLicence(buyer: { token: string }): Promise<Licence> {
  const res = await t.call(licencesRoutes.licences, { token: buyer.token });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().licences).toHaveLength(1);
  return res.json().licences[0];
}

const validate = (key: string, fingerprint: string) =>
  t.call(licencesRoutes.validateLicence, { body: { key, fingerprint } });

async function publicKeyPem(vendorUrl: string) {
  const res = await t.call(licencesRoutes.vendorLicencePublicKey, { params: { vendorUrl } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { publicKeyPem: string }).publicKeyPem;
}

describe('demo data', () => {
  it('gives the demo buyer a licence with one activation and a downloadable build', async () => {
    await seedAll(t.database.db, { codeSecret: t.config.CODE_SECRET });
    await seedAll(t.database.db, { codeSecret: t.config.CODE_SECRET });
    await storeDemoBuild(t.deps.storage);
    await storeDemoDeliverables(t.deps.storage, demoDeliveries);
    const buyer = (
      await t.database.db.execute<{ id: string; email: string }>(
        sql`select id, email from users where email = 'buyer@demo.tradeshelf.test'`,
      )
    ).rows[0]!;
    const token = await userToken(t, buyer);
    const licence = await onlyLicence({ token });
    expect(licence).toMatchObject({
      status: 'active',
      product: { slug: 'grid-guardian-ea' },
      binding: 'metatrader_account',
      activations: [expect.objectContaining({ name: 'IC Markets live', fingerprint: '50012345' })],
      // The EA's own newest file (its demo delivery), not a Windows program (issue 29).
      build: { version: '2.2', fileName: expect.stringMatching(/^GridGuardian-MT[45]-2\.2\.zip$/) },
    });
    expect(licence.history.map((e) => e.type)).toEqual(['activated', 'issued']);
    const answer = (await validate(licence.key, '50012345')).json();
    expect(answer).toMatchObject({ valid: true });
    // Seen two hours ago; validating marks it seen now.
    expect(Date.now() - Date.parse(licence.activations[0]!.lastSeenAt)).toBeGreaterThan(3_600_000);
    const seen = (await onlyLicence({ token })).activations[0]!.lastSeenAt;
    expect(Date.now() - Date.parse(seen)).toBeLessThan(60_000);
    expect(verifies(answer, await publicKeyPem(licence.vendor.vendorUrl))).toBe(true);
    const link = await t.call(licencesRoutes.licenceDownload, {
      token,
      params: { id: licence.id },
    });
    expect(link.statusCode, link.body).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: link.json().url });
    expect(file.rawPayload.length).toBe(licence.build!.sizeBytes);
    // The plans issue no licence and have no licence terms.
    const planTerms = await t.database.db.execute(sql`select 1 from licence_products s
      join products p on p.id = s.product_id join vendors v on v.id = p.vendor_id
      where v.vendor_url = 'tradeshelf'`);
    expect(planTerms.rows).toEqual([]);
  });
});
