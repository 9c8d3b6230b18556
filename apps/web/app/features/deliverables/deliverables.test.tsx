// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deliverableMessages as m, updatePolicyLabels } from '@tradeshelf/contract/client';
import type { DeliverableVersion, DeliverySummary, OwnedDelivery } from '@tradeshelf/contract';
import Library from '../../routes/library.tsx';
import Order from '../../routes/order.tsx';
import VersionMailsUnsubscribe from '../../routes/unsubscribe.tsx';
import { Route, Routes } from 'react-router';
import { startDownload } from '../../lib/download.ts';
import { formatDate } from '../../lib/format.ts';
import { renderWithApp, type Answer, type SeenRequest } from '../../test/render.tsx';
import { whatYouGet } from '../catalog/what-you-get.tsx';
import { paid } from '../orders/test-fixtures.ts';
import { offeredVersion, versionFacts } from './components.tsx';

// Unit files share their worker's modules (vitest.config.ts): evaluate them afresh, so the mock
// below applies even if an earlier file in the worker imported the real module.
vi.hoisted(() => vi.resetModules());

vi.mock('../../lib/download.ts', () => ({ startDownload: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.mocked(startDownload).mockClear();
});

const RELEASED = '2026-11-12T10:00:00.000Z';

const v = (over: Partial<DeliverableVersion> = {}): DeliverableVersion => ({
  id: 'ver_24',
  version: '2.4',
  notes: '- Faster sessions',
  notesHtml: '<ul><li>Faster sessions</li></ul>',
  fileName: 'SessionBox.ex5',
  sizeBytes: 1_258_291,
  sha256: 'ab'.repeat(32),
  link: null,
  releasedAt: RELEASED,
  available: true,
  ...over,
});

const owned = (over: Partial<OwnedDelivery> = {}): OwnedDelivery => ({
  product: { id: 'prd_1', slug: 'session-box', title: 'Session Box' },
  ended: null,
  updates: { policy: 'lifetime', label: updatePolicyLabels.lifetime },
  platforms: [
    {
      platform: 'mt5',
      label: 'MetaTrader 5',
      current: v(),
      earlier: [v({ id: 'ver_10', version: '1.0', notesHtml: '<p>First</p>' })],
    },
  ],
  guide: { html: '<h2>Install</h2><p>Copy the file to MQL5/Indicators.</p>', updatedAt: RELEASED },
  licenceKey: null,
  traceId: 'pur_1',
  versionMails: true,
  ...over,
});

const DELIVERY = '/api/v1/library/prd_1/delivery';

const order = paid({
  id: 'pur_1',
  item: {
    type: 'product',
    id: 'prd_1',
    slug: 'session-box',
    title: 'Session Box',
    priceId: 'price_1',
    vendor: { vendorUrl: 'alpha-edge', displayName: 'Alpha Edge Labs' },
  },
  entitlements: [
    {
      kind: 'access',
      productId: 'prd_1',
      productTitle: 'Session Box',
      productSlug: 'session-box',
      status: 'active',
      endsAt: null,
    },
  ],
});

function renderOrder(answer: (req: SeenRequest) => Answer | undefined) {
  return renderWithApp(
    <Routes>
      <Route path="/orders/:id" element={<Order />} />
    </Routes>,
    {
      signedIn: true,
      url: '/orders/pur_1',
      answer: (req) =>
        answer(req) ??
        (req.path === '/api/v1/purchases/buyer/pur_1'
          ? { status: 200, body: { purchase: order } }
          : { status: 404, body: { error: 'Not found.', code: 'not_found' } }),
    },
  );
}

describe('what a version is (pure)', () => {
  it('names the version, its size and its date from the data', () => {
    expect(versionFacts(v())).toBe(`v2.4, 1.2 MB, released ${formatDate(RELEASED)}`);
    expect(versionFacts(v({ sizeBytes: null, link: 'https://tos.mx/a', fileName: null }))).toBe(
      `v2.4, released ${formatDate(RELEASED)}`,
    );
  });

  it('offers the newest version the purchase covers', () => {
    const p = owned().platforms[0]!;
    expect(offeredVersion(p)?.id).toBe('ver_24');
    expect(offeredVersion({ ...p, current: v({ available: false }) })?.id).toBe('ver_10');
  });

  it('"What you get" is made from what the product delivers', () => {
    const none: DeliverySummary = {
      files: [],
      guide: false,
      discordRoles: false,
      course: false,
      licence: false,
      tradingViewScript: false,
      alerts: null,
      updates: { policy: 'lifetime', label: updatePolicyLabels.lifetime },
    };
    expect(whatYouGet(none)).toEqual([]);
    expect(
      whatYouGet({
        ...none,
        files: [{ platform: 'mt5', label: 'MetaTrader 5', version: '2.4', releasedAt: RELEASED }],
        guide: true,
      }),
    ).toEqual([
      `Files for MetaTrader 5: v2.4, released ${formatDate(RELEASED)}`,
      'A set-up guide',
      updatePolicyLabels.lifetime,
    ]);
    expect(whatYouGet({ ...none, discordRoles: true })).toEqual([
      "Roles in the vendor's Discord server",
    ]);
  });
});

describe('the order page', () => {
  it('offers the current version, its notes, earlier versions collapsed and the guide; a press downloads', async () => {
    const { requests } = renderOrder((req) => {
      if (req.path === DELIVERY) return { status: 200, body: { delivery: owned() } };
      if (req.method === 'POST' && req.path === '/api/v1/library/prd_1/versions/ver_24/download')
        return {
          status: 200,
          body: {
            url: 'http://app.test/files/signed/abc',
            expiresAt: '2026-11-29T10:10:00.000Z',
            fileName: 'SessionBox.ex5',
          },
        };
      return undefined;
    });
    const ui = userEvent.setup();
    const button = await screen.findByRole('button', {
      name: `Download for MetaTrader 5 — v2.4, 1.2 MB, released ${formatDate(RELEASED)}`,
    });
    expect(screen.getAllByTestId('release-notes')[0]!.textContent).toBe('Faster sessions');
    expect(screen.getByTestId('setup-guide').innerHTML).toContain('<h2>Install</h2>');
    const earlier = screen.getByText('Earlier versions').closest('details')!;
    expect(earlier.open).toBe(false);
    expect(within(earlier).getAllByTestId('earlier-version')).toHaveLength(1);

    await ui.click(button);
    await waitFor(() =>
      expect(startDownload).toHaveBeenCalledWith('http://app.test/files/signed/abc'),
    );
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/api/v1/library/prd_1/versions/ver_24/download',
    ]);
    expect(screen.getByRole('link', { name: 'download SessionBox.ex5' })).toBeTruthy();
  });

  it('shows a version outside the updates with the message, without offering it', async () => {
    renderOrder((req) =>
      req.path === DELIVERY
        ? {
            status: 200,
            body: {
              delivery: owned({
                updates: { policy: 'none', label: updatePolicyLabels.none },
                platforms: [
                  {
                    platform: 'mt5',
                    label: 'MetaTrader 5',
                    current: v({ id: 'ver_25', version: '2.5', available: false }),
                    earlier: [v()],
                  },
                ],
              }),
            },
          }
        : undefined,
    );
    expect(
      await screen.findByRole('button', { name: /^Download for MetaTrader 5 — v2\.4/ }),
    ).toBeTruthy();
    expect(screen.getByTestId('outside-updates').textContent).toContain(m.outsideUpdates);
    expect(screen.queryByRole('button', { name: /v2\.5/ })).toBeNull();
    expect(screen.getByText(/not included in your updates/)).toBeTruthy();
  });

  it('says why downloads ended instead of offering them', async () => {
    renderOrder((req) =>
      req.path === DELIVERY
        ? {
            status: 200,
            body: {
              delivery: owned({ ended: { reason: 'refunded', message: m.ended.refunded } }),
            },
          }
        : undefined,
    );
    expect((await screen.findByTestId('downloads-ended')).textContent).toBe(m.ended.refunded);
    expect(screen.queryByTestId('deliverable-download')).toBeNull();
  });

  it('shows the reason a download is refused at its button', async () => {
    renderOrder((req) => {
      if (req.path === DELIVERY) return { status: 200, body: { delivery: owned() } };
      if (req.method === 'POST')
        return {
          status: 403,
          body: { error: m.ended.revoked, code: 'forbidden' },
        };
      return undefined;
    });
    const ui = userEvent.setup();
    await ui.click(
      await screen.findByRole('button', { name: /^Download for MetaTrader 5 — v2\.4/ }),
    );
    expect(await screen.findByText(m.ended.revoked)).toBeTruthy();
    expect(startDownload).not.toHaveBeenCalled();
  });

  it('shows the licence key and nothing for a product that delivers nothing', async () => {
    renderOrder((req) =>
      req.path === DELIVERY
        ? {
            status: 200,
            body: { delivery: owned({ platforms: [], guide: null, licenceKey: 'TS-AAAA-BBBB' }) },
          }
        : undefined,
    );
    expect((await screen.findByTestId('licence-key')).textContent).toBe('TS-AAAA-BBBB');
    cleanup();
    renderOrder((req) =>
      req.path === DELIVERY
        ? { status: 200, body: { delivery: owned({ platforms: [], guide: null }) } }
        : undefined,
    );
    await screen.findByRole('heading', { name: 'What you get' });
    await waitFor(() => expect(screen.queryByTestId('product-delivery')).toBeNull());
  });
});

describe('the library', () => {
  it('opens a purchase’s downloads on demand', async () => {
    const { requests } = renderWithApp(<Library />, {
      signedIn: true,
      url: '/library',
      answer: (req) =>
        req.path === '/api/v1/purchases/buyer/list'
          ? { status: 200, body: { purchases: [order], nextCursor: null } }
          : req.path === '/api/v1/communities/user'
            ? { status: 200, body: { communities: [] } }
            : req.path === DELIVERY
              ? { status: 200, body: { delivery: owned() } }
              : { status: 404, body: { error: 'Not found.', code: 'not_found' } },
    });
    const ui = userEvent.setup();
    const open = await screen.findByRole('button', { name: 'Open downloads for Session Box' });
    expect(requests.some((r) => r.path === DELIVERY)).toBe(false);
    await ui.click(open);
    expect(open.getAttribute('aria-expanded')).toBe('true');
    expect(
      await screen.findByRole('button', { name: /^Download for MetaTrader 5 — v2\.4/ }),
    ).toBeTruthy();
    expect(screen.getByText(/New versions are e-mailed to you/)).toBeTruthy();
  });
});

describe('the unsubscribe page', () => {
  it('turns the mails off on a press, not on load', async () => {
    const { requests } = renderWithApp(<VersionMailsUnsubscribe />, {
      url: '/version-mails/unsubscribe?token=tok_1',
      answer: (req) =>
        req.path === '/api/v1/library/version-mails/unsubscribe'
          ? { status: 200, body: { message: m.unsubscribed } }
          : { status: 404, body: { error: 'Not found.', code: 'not_found' } },
    });
    const ui = userEvent.setup();
    expect(requests).toEqual([]);
    await ui.click(screen.getByRole('button', { name: 'Stop these e-mails' }));
    expect(await screen.findByText(m.unsubscribed, { exact: false })).toBeTruthy();
    expect(requests.map((r) => r.body)).toEqual([{ token: 'tok_1' }]);
  });
});
