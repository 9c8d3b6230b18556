import type { Licence, LicenceActivation } from '@tradeshelf/contract';

/** A device as the API presents it. */
export function activation(o: Partial<LicenceActivation> = {}): LicenceActivation {
  return {
    id: 'act_1',
    name: 'IC Markets live',
    binding: 'metatrader_account',
    fingerprint: '50012345',
    activatedAt: '2026-11-10T10:00:00.000Z',
    lastSeenAt: '2026-11-22T10:00:00.000Z',
    ...o,
  };
}

/** A licence as the API presents it, for reducer and page tests. */
export function licence(o: Partial<Licence> = {}): Licence {
  return {
    id: 'lic_1',
    key: 'TS-7K2QF-9MXWD-4HB8R-ZT3NC',
    status: 'active',
    message: 'Active.',
    expiresAt: null,
    issuedAt: '2026-11-09T10:00:00.000Z',
    purchaseId: 'pur_1',
    product: { id: 'prd_grid', slug: 'grid-guardian-ea', title: 'Grid Guardian EA' },
    vendor: { vendorUrl: 'pip-hunters', displayName: 'Pip Hunters' },
    binding: 'metatrader_account',
    maxActivations: 3,
    activations: [activation()],
    resetsLeft: 3,
    build: {
      version: '1.0.0',
      fileName: 'tradeshelf-licence-demo-1.0.0.zip',
      sizeBytes: 4096,
      sha256: 'ab'.repeat(32),
      publishedAt: '2026-11-20T10:00:00.000Z',
    },
    history: [
      { type: 'issued', detail: 'Issued with the purchase.', at: '2026-11-09T10:00:00.000Z' },
    ],
    ...o,
  };
}
