// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SigningKey, VendorLicencePolicy } from '@tradeshelf/contract';
import { renderWithApp, type SeenRequest } from '../../../test/render.tsx';
import { LicencePolicyEditor } from './editor.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const key = (id: string, retiredAt: string | null = null): SigningKey => ({
  keyId: id,
  algorithm: 'Ed25519',
  publicKeyPem: `-----BEGIN PUBLIC KEY-----\n${id}\n-----END PUBLIC KEY-----\n`,
  publicKeyRaw: `${id}-raw`,
  createdAt: '2026-11-20T10:00:00.000Z',
  retiredAt,
  licences: 4,
});

const policy: VendorLicencePolicy = {
  app: {
    productId: 'prd_app',
    title: 'Grid Guardian EA',
    slug: 'grid-guardian-ea',
    isActive: true,
    maxActivations: 3,
    binding: null,
    counts: { issued: 4, active: 3, activations: 5 },
    build: null,
  },
  vendorUrl: 'pip-hunters',
  keys: [key('k1')],
  builds: [],
};

function setup() {
  return renderWithApp(<LicencePolicyEditor productId="prd_app" />, {
    signedIn: true,
    url: '/vendor/licences/prd_app',
    answer: (req: SeenRequest) => {
      if (req.method === 'GET') return { status: 200, body: { policy } };
      if (req.method === 'PUT') {
        const body = req.body as { maxActivations: number; binding: string | null };
        return { status: 200, body: { policy: { ...policy, app: { ...policy.app, ...body } } } };
      }
      if (req.path.endsWith('/rotate'))
        return {
          status: 200,
          body: { keys: [key('k2'), key('k1', '2026-11-24T10:00:00.000Z')] },
        };
      return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
    },
  });
}

describe('licence policy editor', () => {
  it('checks the terms with the contract’s message, then saves them', async () => {
    const user = userEvent.setup();
    const app = setup();
    const field = await screen.findByLabelText('Activations per licence');
    await user.clear(field);
    await user.type(field, '0');
    await user.click(screen.getByRole('button', { name: 'Save terms' }));
    expect(screen.getByText('Allow from 1 to 100 activations per licence.')).toBeTruthy();
    expect(app.requests.some((r) => r.method === 'PUT')).toBe(false);
    await user.clear(field);
    await user.type(field, '1');
    await user.selectOptions(screen.getByLabelText('Binding preset'), 'metatrader_account');
    await user.click(screen.getByRole('button', { name: 'Save terms' }));
    await waitFor(() => expect(app.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = app.requests.find((r) => r.method === 'PUT')!;
    expect(put.path).toBe('/api/v1/vendor/licences/prd_app');
    expect(put.body).toEqual({ maxActivations: 1, binding: 'metatrader_account' });
    expect(await screen.findByText(/apply from the next activation/)).toBeTruthy();
  });

  it('copies the public key, and rotates only after a confirm', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const app = setup();
    await user.click(await screen.findByRole('button', { name: 'Copy public key (PEM)' }));
    expect(writeText).toHaveBeenCalledWith(key('k1').publicKeyPem);

    await user.click(screen.getByRole('button', { name: 'Rotate key' }));
    expect(screen.getByText(/keep getting answers signed with the current key/)).toBeTruthy();
    expect(app.requests.some((r) => r.method === 'POST')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Make a new key' }));
    expect(await screen.findByText('Retired keys')).toBeTruthy();
    expect(app.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/api/v1/vendor/licences/signing-keys/rotate',
    ]);
    expect(screen.getByText('k2')).toBeTruthy();
  });
});
