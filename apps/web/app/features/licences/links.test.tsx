// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import Library from '../../routes/library.tsx';
import { renderWithApp } from '../../test/render.tsx';
import { Entitlements } from '../orders/components.tsx';
import { paid } from '../orders/test-fixtures.ts';

afterEach(cleanup);

const access = {
  kind: 'access' as const,
  productId: 'prd_calc',
  productTitle: 'Position Size Calculator Pro',
  productSlug: 'position-size-calculator-pro',
  status: 'active' as const,
  endsAt: null,
};
const app = paid({
  id: 'pur_app',
  item: { ...paid().item, id: 'prd_calc', title: 'Position Size Calculator Pro' },
  entitlements: [access, { ...access, kind: 'licence' }],
});
const tool = paid({ id: 'pur_tool', entitlements: [{ ...access, productId: 'prd_tool' }] });

describe('the way to the apps page', () => {
  it('the library links to it, and from each purchase that came with a licence', async () => {
    renderWithApp(<Library />, {
      signedIn: true,
      url: '/library',
      answer: (req) => {
        if (req.path === '/api/v1/purchases/buyer/list')
          return { status: 200, body: { purchases: [app, tool], nextCursor: null } };
        if (req.path === '/api/v1/communities/user')
          return { status: 200, body: { communities: [] } };
        if (req.path === '/api/v1/user/discord') return { status: 200, body: { discord: null } };
        return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
      },
    });
    const manage = await screen.findByRole('link', {
      name: 'Manage licence for Position Size Calculator Pro',
    });
    expect(manage.getAttribute('href')).toBe('/apps');
    // One per licence: the indicator has none.
    expect(screen.getAllByTestId('library-licence-link')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Apps and licences' }).getAttribute('href')).toBe(
      '/apps',
    );
  });

  it('an order lists the licence with "Manage licence" while it is active', () => {
    renderWithApp(<Entitlements items={app.entitlements} />);
    expect(
      screen
        .getByRole('link', { name: 'Manage licence for Position Size Calculator Pro' })
        .getAttribute('href'),
    ).toBe('/apps');
    cleanup();
    renderWithApp(<Entitlements items={[{ ...app.entitlements[1]!, status: 'ended' }]} />);
    expect(screen.getByText('ended')).toBeTruthy();
    expect(screen.queryByTestId('licence-manage-link')).toBeNull();
  });
});
