// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vendorProductMessages as m } from '@tradeshelf/contract/client';
import type { VendorProduct, VendorProductRow } from '@tradeshelf/contract';
import { renderWithApp, type Answer, type SeenRequest } from '../../../test/render.tsx';
import { LoadedProductEditor, VendorProductEditor } from './editor.tsx';
import {
  addPlan,
  checkForm,
  deliveryLink,
  emptyForm,
  movePlanUp,
  publishProblems,
  removePlan,
  toInput,
  updatePlan,
} from './form.ts';
import { VendorProductList } from './list.tsx';
import * as listing from '../listing-tests.tsx';
import { parseAmount } from '../money-format.ts';

afterEach(cleanup);

const product = (over: Partial<VendorProduct> = {}): VendorProduct => ({
  id: 'prd_1',
  slug: 'trend-ribbon',
  kind: 'indicator',
  category: 'indicators',
  status: 'draft',
  title: 'Trend Ribbon',
  summary: 'Trend at a glance.',
  description: '## Hello',
  tags: ['trend'],
  platforms: ['tradingview'],
  assetClasses: ['crypto'],
  prerequisites: [],
  plans: [{ priceId: 'price_1', billing: 'one_time', amount: 4900, currency: 'usd', trialDays: 0 }],
  images: [],
  publicPath: '/p/prd_1/trend-ribbon',
  missingToPublish: {},
  salesCount: 0,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
  publishedAt: null,
  ...over,
});

const row = (over: Partial<VendorProductRow> = {}): VendorProductRow => ({
  id: 'prd_1',
  slug: 'trend-ribbon',
  kind: 'indicator',
  status: 'published',
  title: 'Trend Ribbon',
  publicPath: '/p/prd_1/trend-ribbon',
  salesCount: 3,
  updatedAt: '2026-11-02T10:00:00.000Z',
  price: { priceId: 'price_1', billing: 'month', amount: 2900, currency: 'usd', trialDays: 7 },
  plansCount: 2,
  imageUrl: null,
  ...over,
});

describe('plan editing (pure)', () => {
  it('adds one-time, then monthly, then yearly; removes; moves up', () => {
    let f = addPlan(addPlan(addPlan(emptyForm())));
    expect(f.plans.map((p) => p.billing)).toEqual(['one_time', 'month', 'year']);
    const [a, b] = f.plans;
    f = movePlanUp(f, b!.key);
    expect(f.plans.map((p) => p.billing)).toEqual(['month', 'one_time', 'year']);
    f = removePlan(f, a!.key);
    expect(f.plans.map((p) => p.billing)).toEqual(['month', 'year']);
  });

  it('a one-time plan has no trial; the currency is the same on every plan', () => {
    let f = addPlan(addPlan(emptyForm()));
    const [one, monthly] = f.plans;
    f = updatePlan(f, monthly!.key, { trialDays: '14' });
    f = updatePlan(f, monthly!.key, { billing: 'one_time' });
    expect(f.plans[1]!.trialDays).toBe('0');
    f = updatePlan(f, one!.key, { currency: 'eur' });
    expect(f.plans.map((p) => p.currency)).toEqual(['eur', 'eur']);
  });

  it('reads prices as typed into minor units', () => {
    expect(parseAmount('49')).toBe(4900);
    expect(parseAmount('49.9')).toBe(4990);
    expect(parseAmount('1,299.99')).toBe(129999);
    expect(parseAmount('-5')).toBeNaN();
    expect(parseAmount('4.999')).toBeNaN();
    expect(parseAmount('')).toBeNaN();
  });

  it("checks with the contract's messages, keyed as the server keys them", () => {
    let f = { ...emptyForm(), title: 'T', summary: 'S', tags: 'ok, <b>' };
    f = addPlan(f);
    f = updatePlan(f, f.plans[0]!.key, { price: '-3' });
    expect(checkForm(f)).toMatchObject({ 'plans.0.amount': m.amount, tags: m.tag });
    f = updatePlan({ ...f, tags: 'ok' }, f.plans[0]!.key, { price: '3' });
    expect(checkForm(f)).toEqual({});
    expect(toInput(f).plans).toEqual([
      { billing: 'one_time', amount: 300, currency: 'usd', trialDays: 0 },
    ]);
    const monthly = addPlan(f);
    const withTrial = updatePlan(monthly, monthly.plans[1]!.key, { price: '9', trialDays: '91' });
    expect(checkForm(withTrial)).toEqual({ 'plans.1.trialDays': m.trialDays });
    expect(publishProblems(emptyForm())).toEqual({
      title: m.titleRequired,
      summary: m.summaryRequired,
      plans: m.planRequired,
    });
  });

  it('links to the delivery set-up of its kind', () => {
    const at = (kind: VendorProduct['kind'], platforms: VendorProduct['platforms'] = []) =>
      deliveryLink({ id: 'prd_9', kind, platforms })?.to ?? null;
    expect(at('community')).toBe('/vendor/delivery/discord');
    expect(at('course')).toBe('/vendor/courses/prd_9');
    expect(at('app')).toBe('/vendor/licences/prd_9');
    expect(at('indicator', ['tradingview'])).toBe('/vendor/delivery/tradingview');
    expect(at('scanner', ['mt5'])).toBeNull();
  });
});

/** The vendor API as the editor sees it; records what was sent. */
function api(initial: VendorProduct | null) {
  let current = initial;
  return (req: SeenRequest): Answer => {
    if (req.path === '/api/v1/vendor/products' && req.method === 'GET')
      return { status: 200, body: { products: [], nextCursor: null } };
    // The editor's "Files and guide" section reads the product's delivery (files.test.tsx tests it).
    if (req.path.endsWith('/delivery') && req.method === 'GET')
      return {
        status: 200,
        body: {
          delivery: {
            productId: 'prd_1',
            updatePolicy: 'lifetime',
            guide: '',
            guideUpdatedAt: null,
            versions: [],
          },
        },
      };
    if (req.path === '/api/v1/vendor/products' && req.method === 'POST') {
      current = product({ ...(req.body as object), id: 'prd_new', plans: [] });
      return { status: 201, body: { product: current } };
    }
    if (req.path === '/api/v1/vendor/products/prd_1' && req.method === 'GET')
      return current
        ? { status: 200, body: { product: current } }
        : { status: 404, body: { error: m.notFound, code: 'not_found' } };
    if (req.path === '/api/v1/vendor/products/prd_1/unpublish') {
      current = product({ ...current, status: 'unpublished' });
      return { status: 200, body: { product: current } };
    }
    if (req.path === '/api/v1/vendor/products/prd_1/publish')
      return {
        status: 422,
        body: {
          error: 'Add a summary before publishing.',
          code: 'business_rule',
          fields: { summary: m.summaryRequired },
        },
      };
    return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
  };
}

describe('the editor', () => {
  it('refuses a bad price with the contract message and sends nothing; then saves the draft', async () => {
    const ui = userEvent.setup();
    const { requests } = listing.renderNewDraft(
      'product',
      <VendorProductEditor product={null} />,
      api(null),
    );
    await ui.type(screen.getByLabelText('Title'), 'Trend Ribbon');
    await ui.click(screen.getByRole('button', { name: 'Add a plan' }));
    await ui.type(screen.getByLabelText('Price'), '-5');
    await ui.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(m.amount)).toBeTruthy();
    expect(listing.writes(requests)).toEqual([]);

    await ui.clear(screen.getByLabelText('Price'));
    await ui.type(screen.getByLabelText('Price'), '49.50');
    await ui.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Editing saved product')).toBeTruthy();
    expect(listing.writes(requests)).toHaveLength(1);
    expect(listing.writes(requests)[0]!.body).toMatchObject({
      kind: 'indicator',
      title: 'Trend Ribbon',
      plans: [{ billing: 'one_time', amount: 4950, currency: 'usd', trialDays: 0 }],
    });
  });

  it('adds and removes plans; a one-time plan takes no trial', async () => {
    const ui = userEvent.setup();
    renderWithApp(<VendorProductEditor product={product()} />, {
      signedIn: true,
      url: '/vendor/products/prd_1',
      answer: api(product()),
    });
    await ui.click(screen.getByRole('button', { name: 'Add a plan' }));
    const trials = screen.getAllByLabelText('Free trial (days)') as HTMLInputElement[];
    expect(trials.map((t) => t.disabled)).toEqual([true, false]);
    await ui.click(screen.getByRole('button', { name: 'Remove plan 1' }));
    expect(screen.getAllByLabelText('Price')).toHaveLength(1);
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
  });

  it('previews the description as the product page renders it', async () => {
    const ui = userEvent.setup();
    renderWithApp(
      // A heading on the line before its text (issue 27: the old parser showed "## Setup").
      <VendorProductEditor
        product={product({ description: '## Setup\n**Fast** and <img src=x onerror="alert(1)">' })}
      />,
      {
        signedIn: true,
        answer: api(product()),
      },
    );
    await ui.click(screen.getByRole('tab', { name: 'Preview' }));
    const panel = screen.getByRole('tabpanel', { name: 'Preview' });
    // The renderer loads with the first preview.
    expect(await within(panel).findByRole('heading', { level: 2, name: 'Setup' })).toBeTruthy();
    expect(within(panel).getByText('Fast').tagName).toBe('STRONG');
    expect(panel.querySelector('img')).toBeNull();
    expect(panel.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it('shows what the server says publishing needs, by field', async () => {
    const ui = userEvent.setup();
    renderWithApp(<VendorProductEditor product={product()} />, {
      signedIn: true,
      answer: api(product()),
    });
    await ui.click(screen.getByRole('button', { name: 'Publish…' }));
    await ui.click(screen.getByRole('button', { name: 'Publish' }));
    // Said at the field once; the banner points there (issue 27).
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Some fields need attention: see the messages below.',
    );
    expect(screen.getAllByText(m.summaryRequired)).toHaveLength(1);
  });

  it('asks before unpublishing, and links to delivery set-up and the public page', async () => {
    const ui = userEvent.setup();
    const published = product({ status: 'published', kind: 'course' });
    const { requests } = renderWithApp(<LoadedProductEditor id="prd_1" />, {
      signedIn: true,
      answer: api(published),
    });
    expect(
      (await screen.findByRole('link', { name: 'Build the course' })).getAttribute('href'),
    ).toBe('/vendor/courses/prd_1');
    await listing.unpublishAfterAsking(ui, requests, {
      noun: 'product',
      id: 'prd_1',
      title: 'Trend Ribbon',
      publicPath: '/p/prd_1/trend-ribbon',
    });
  });
});

listing.describeTwoTabs({
  noun: 'product',
  make: product,
  editor: (loaded) => <VendorProductEditor product={loaded} />,
  api,
  conflict: m.editConflict,
});

describe('pictures', () => {
  it('asks before deleting a picture, and can make another the cover', async () => {
    const ui = userEvent.setup();
    const images = [
      '/files/public/products/prd_1/a/1200.jpg',
      '/files/public/products/prd_1/b/1200.jpg',
    ];
    const { requests } = renderWithApp(<VendorProductEditor product={product({ images })} />, {
      signedIn: true,
      answer: (req) =>
        req.method === 'PUT' && req.path === '/api/v1/vendor/products/prd_1/images'
          ? {
              status: 200,
              body: { product: product({ images: (req.body as { images: string[] }).images }) },
            }
          : api(product({ images }))(req),
    });
    await ui.click(screen.getByRole('button', { name: 'Remove picture 1' }));
    expect(listing.writes(requests)).toEqual([]);
    await ui.click(screen.getByRole('button', { name: 'Delete picture 1' }));
    await waitFor(() => expect(screen.getAllByRole('img')).toHaveLength(1));
    expect(listing.writes(requests)[0]!.body).toEqual({ images: [images[1]] });
    expect(screen.getByRole('img').getAttribute('alt')).toBe('Cover picture');
  });
});

describe('the product list', () => {
  listing.itOffersTheFirst('product', <VendorProductList />);

  it('shows status, kind and price with edit links, and pages on', async () => {
    const ui = userEvent.setup();
    const { requests } = listing.renderTwoPages(
      'product',
      <VendorProductList />,
      row(),
      row({ id: 'prd_2', title: 'Second' }),
    );
    const link = await screen.findByRole('link', { name: 'Trend Ribbon' });
    expect(link.getAttribute('href')).toBe('/vendor/products/prd_1');
    const tr = link.closest('tr')!;
    expect(within(tr).getByText('Published')).toBeTruthy();
    expect(within(tr).getByText('Indicator')).toBeTruthy();
    expect(tr.textContent).toContain('$29 monthly');
    expect(tr.textContent).toContain('+1 more');
    await listing.pageOnAndBack(ui, requests, { first: 'Trend Ribbon', second: 'Second' });
  });
});
