// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vendorUrlMessages, storefrontMessages as m } from '@tradeshelf/contract/client';
import type { Storefront } from '@tradeshelf/contract';
import { afterEach, describe, expect, it } from 'vitest';
import StorefrontPage from '../../../routes/workspace/storefront.tsx';
import { renderWithApp, type SeenRequest } from '../../../test/render.tsx';

afterEach(cleanup);

const saved = (body: Partial<Storefront>): Storefront => ({
  id: 'ven_1',
  vendorUrl: 'my-shop',
  path: '/v/my-shop',
  displayName: 'My Shop',
  bio: '',
  socialLinks: {},
  avatarUrl: null,
  avatar: null,
  bannerUrl: null,
  banner: null,
  previousUrls: [],
  renamesLeft: 5,
  createdAt: '2026-11-24T10:00:00.000Z',
  ...body,
});

function render(answer: (req: SeenRequest) => { status: number; body: unknown } | undefined) {
  return renderWithApp(<StorefrontPage />, {
    signedIn: true,
    url: '/vendor/storefront',
    answer: (req) =>
      answer(req) ??
      (req.path === '/api/v1/vendor/storefront' && req.method === 'GET'
        ? { status: 200, body: { storefront: null } }
        : req.path === '/api/v1/vendor/storefront/url-availability'
          ? {
              status: 200,
              body: {
                vendorUrl: req.query.get('vendorUrl'),
                available: true,
                message: vendorUrlMessages.available,
              },
            }
          : { status: 404, body: { error: 'Not found.', code: 'not_found' } }),
  });
}

describe('the storefront form', () => {
  it('shows the contract’s messages before sending, and sends nothing while the form is wrong', async () => {
    const user = userEvent.setup();
    const { requests } = render(() => undefined);
    const create = await screen.findByRole('button', { name: 'Create storefront' });
    await user.type(screen.getByLabelText('Storefront address'), 'admin');
    await user.type(screen.getByLabelText('X (Twitter)'), 'http://x.com/me');
    await user.click(create);
    expect(screen.getByText(vendorUrlMessages.reserved)).toBeTruthy();
    expect(screen.getByText(m.nameRequired)).toBeTruthy();
    expect(screen.getByText(m.linkHttps)).toBeTruthy();
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    // Pictures wait for the storefront.
    expect(screen.getAllByText(m.setUpFirst)).toHaveLength(2);
  });

  it('previews the header as typed, says when the address is free, and saves', async () => {
    const user = userEvent.setup();
    const { requests } = render((req) =>
      req.method === 'PUT'
        ? { status: 200, body: { storefront: saved({ displayName: 'Night Owl' }) } }
        : undefined,
    );
    await screen.findByRole('button', { name: 'Create storefront' });
    await user.type(screen.getByLabelText('Storefront address'), 'Night-Owl');
    await user.type(screen.getByLabelText('Name'), 'Night Owl');
    const preview = screen.getByRole('region', { name: 'Preview of your storefront’s header' });
    expect(preview.textContent).toContain('Night Owl');
    expect(preview.textContent).toContain('/v/night-owl');
    expect(await screen.findByText(vendorUrlMessages.available)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create storefront' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(requests.find((r) => r.method === 'PUT')!.body).toEqual({
      vendorUrl: 'night-owl',
      displayName: 'Night Owl',
      bio: '',
      socialLinks: {},
    });
    expect(await screen.findByRole('link', { name: 'View your storefront' })).toBeTruthy();
  });

  it('shows the server’s field message when the address was taken meanwhile', async () => {
    const user = userEvent.setup();
    render((req) =>
      req.method === 'PUT'
        ? {
            status: 409,
            body: {
              error: vendorUrlMessages.taken,
              code: 'conflict',
              fields: { vendorUrl: vendorUrlMessages.taken },
            },
          }
        : undefined,
    );
    await screen.findByRole('button', { name: 'Create storefront' });
    await user.type(screen.getByLabelText('Storefront address'), 'popular');
    await user.type(screen.getByLabelText('Name'), 'Popular');
    await user.click(screen.getByRole('button', { name: 'Create storefront' }));
    const field = screen.getByLabelText('Storefront address');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(vendorUrlMessages.taken)).toBeTruthy();
  });
});
