// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { usersMessages, vendorBundleMessages as m } from '@tradeshelf/contract/client';
import type { VendorBundle, VendorBundleProduct, VendorBundleRow } from '@tradeshelf/contract';
import { renderWithApp, type Answer, type SeenRequest } from '../../../test/render.tsx';
import { LoadedBundleEditor, VendorBundleEditor } from './editor.tsx';
import {
  checkForm,
  emptyForm,
  formFromBundle,
  publishProblems,
  savingOf,
  toggleProduct,
  toInput,
} from './form.ts';
import { VendorBundleList } from './list.tsx';
import * as listing from '../listing-tests.tsx';

const FIELDS_NEED_ATTENTION = 'Some fields need attention: see the messages below.';

afterEach(cleanup);

const item = (over: Partial<VendorBundleProduct> = {}): VendorBundleProduct => ({
  id: 'prd_a',
  title: 'Trend Ribbon',
  kind: 'indicator',
  status: 'published',
  price: { amount: 4900, currency: 'usd' },
  ...over,
});
const ribbon = item();
const alerts = item({
  id: 'prd_b',
  title: 'Breakout Alerts',
  price: { amount: 2900, currency: 'usd' },
});
const draftScanner = item({ id: 'prd_c', title: 'Gap Scanner', status: 'draft', price: null });

const bundle = (over: Partial<VendorBundle> = {}): VendorBundle => ({
  id: 'bnd_1',
  slug: 'momentum-kit',
  status: 'draft',
  title: 'Momentum Kit',
  summary: 'Two tools, one price.',
  description: '## Inside',
  imageUrl: null,
  price: { priceId: 'price_1', amount: 6000, currency: 'usd' },
  products: [ribbon, alerts],
  saving: { value: 7800, amount: 1800, percent: 23 },
  publicPath: '/b/bnd_1/momentum-kit',
  missingToPublish: {},
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
  publishedAt: null,
  ...over,
});

const row = (over: Partial<VendorBundleRow> = {}): VendorBundleRow => ({
  id: 'bnd_1',
  slug: 'momentum-kit',
  status: 'published',
  title: 'Momentum Kit',
  imageUrl: null,
  price: { priceId: 'price_1', amount: 6000, currency: 'usd' },
  publicPath: '/b/bnd_1/momentum-kit',
  updatedAt: '2026-11-02T10:00:00.000Z',
  productsCount: 3,
  ...over,
});

describe('the bundle form (pure)', () => {
  it("checks with the contract's messages, keyed as the server keys them", () => {
    const f = { ...emptyForm(), title: 'Kit', price: '-5' };
    expect(checkForm(f)).toEqual({ productIds: m.productsMin, 'price.amount': m.amount });
    const two = toggleProduct(toggleProduct({ ...f, price: '60' }, ribbon), alerts);
    expect(checkForm(two)).toEqual({});
    expect(toInput(two)).toEqual({
      title: 'Kit',
      summary: '',
      description: '',
      productIds: ['prd_a', 'prd_b'],
      price: { amount: 6000, currency: 'usd' },
    });
    // No price typed: a draft without one.
    expect(toInput({ ...two, price: ' ' }).price).toBeNull();
    // Choosing a product again takes it out.
    expect(toggleProduct(two, ribbon).products.map((p) => p.id)).toEqual(['prd_b']);
  });

  it('says what publishing needs, and what buyers save counting published products only', () => {
    const f = formFromBundle(bundle({ products: [ribbon, draftScanner], price: null }));
    expect(publishProblems({ ...f, title: '' })).toEqual({
      title: m.titleRequired,
      price: m.priceRequired,
      productIds: m.publishedProducts,
    });
    const priced = { ...f, price: '40', products: [ribbon, alerts, draftScanner] };
    expect(savingOf(priced)).toEqual({ value: 7800, amount: 3800, percent: 49 });
    expect(publishProblems(priced)).toEqual({});
  });
});

/** The vendor API as the editor sees it; records what was sent. */
function api(initial: VendorBundle | null, over: (req: SeenRequest) => Answer | null = () => null) {
  let current = initial;
  return (req: SeenRequest): Answer => {
    const special = over(req);
    if (special) return special;
    if (req.path === '/api/v1/vendor/bundles/products') {
      const q = (req.query.get('q') ?? '').toLowerCase();
      const all = [alerts, draftScanner, ribbon];
      return {
        status: 200,
        body: { products: all.filter((p) => p.title.toLowerCase().includes(q)), nextCursor: null },
      };
    }
    if (req.path === '/api/v1/vendor/bundles' && req.method === 'POST') {
      current = bundle({ id: 'bnd_new' });
      return { status: 201, body: { bundle: current } };
    }
    if (req.path === '/api/v1/vendor/bundles/bnd_1' && req.method === 'GET')
      return current
        ? { status: 200, body: { bundle: current } }
        : { status: 404, body: { error: m.notFound, code: 'not_found' } };
    if (req.path === '/api/v1/vendor/bundles/bnd_1' && req.method === 'PUT')
      return {
        status: 422,
        body: {
          error: m.productUnknown,
          code: 'business_rule',
          fields: { productIds: m.productUnknown },
        },
      };
    if (req.path === '/api/v1/vendor/bundles/bnd_1/unpublish') {
      current = bundle({ ...current, status: 'unpublished' });
      return { status: 200, body: { bundle: current } };
    }
    if (req.path === '/api/v1/vendor/bundles/bnd_1/publish')
      return {
        status: 422,
        body: {
          error: m.publishedProducts,
          code: 'business_rule',
          fields: { productIds: m.publishedProducts },
        },
      };
    if (req.path === '/api/v1/vendor/bundles/bnd_1/cover' && req.method === 'DELETE') {
      current = bundle({ ...current, imageUrl: null });
      return { status: 200, body: { bundle: current } };
    }
    return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
  };
}

describe('the editor', () => {
  it('picks products with the keyboard, shows the saving, refuses a bad price, then saves', async () => {
    const ui = userEvent.setup();
    const { requests } = listing.renderNewDraft(
      'bundle',
      <VendorBundleEditor bundle={null} />,
      api(null),
    );
    await ui.type(screen.getByLabelText('Title'), 'Momentum Kit');
    const search = screen.getByRole('combobox', { name: 'Find your products' });
    await ui.type(search, 'rib');
    const listbox = screen.getByRole('listbox', { name: 'Your products' });
    await waitFor(() => expect(within(listbox).getAllByRole('option')).toHaveLength(1), {
      timeout: 5000,
    });
    expect(search.getAttribute('aria-activedescendant')).toBe(
      within(listbox).getByRole('option').id,
    );
    await ui.keyboard('{Enter}');
    expect(within(listbox).getByRole('option', { name: /Trend Ribbon/ })).toHaveProperty(
      'ariaSelected',
      'true',
    );
    // Emptied in one change event (typing keys against a busy machine raced React's re-render).
    fireEvent.change(search, { target: { value: '' } });
    await waitFor(() => expect(within(listbox).getAllByRole('option')).toHaveLength(3), {
      timeout: 5000,
    });
    // Breakout Alerts is first; Enter adds it. Down to the draft, Enter adds it too.
    await ui.keyboard('{Enter}{ArrowDown}{Enter}');
    expect(screen.getByRole('heading', { name: 'In this bundle (3)' })).toBeTruthy();
    expect(screen.getByText(/1 chosen product is not published/)).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: 'Remove Gap Scanner' }));
    expect(screen.getByRole('heading', { name: 'In this bundle (2)' })).toBeTruthy();

    await ui.type(screen.getByLabelText('Price'), '-5');
    await ui.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(m.amount)).toBeTruthy();
    expect(listing.writes(requests)).toEqual([]);

    fireEvent.change(screen.getByLabelText('Price'), { target: { value: '60' } });
    expect(screen.getByRole('status', { name: 'What buyers save' }).textContent).toContain(
      'Bought separately: $78. Buyers save $18 (23%).',
    );
    await ui.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Editing saved bundle')).toBeTruthy();
    expect(listing.writes(requests)).toHaveLength(1);
    expect(listing.writes(requests)[0]!.body).toEqual({
      title: 'Momentum Kit',
      summary: '',
      description: '',
      productIds: ['prd_a', 'prd_b'],
      price: { amount: 6000, currency: 'usd' },
    });
  }, 20_000);

  it('warns when the bundle costs more than its products', async () => {
    const ui = userEvent.setup();
    const unpriced = bundle({ price: null, saving: null });
    renderWithApp(<VendorBundleEditor bundle={unpriced} />, {
      signedIn: true,
      answer: api(unpriced),
    });
    const note = screen.getByRole('status', { name: 'What buyers save' });
    expect(note.textContent).toContain('Set a price to see what buyers save');
    await ui.type(screen.getByLabelText('Price'), '90');
    expect(note.textContent).toContain(
      'That is $12 more than the products cost separately ($78): buyers see no saving.',
    );
  });

  it('asks the vendor to confirm a price above the products’ value, and sends that word (issue 27)', async () => {
    const ui = userEvent.setup();
    const dearer = bundle({
      price: { priceId: 'price_1', amount: 9000, currency: 'usd' },
      saving: { value: 7800, amount: -1200, percent: -15 },
    });
    const published = bundle({ ...dearer, status: 'published' });
    const { requests } = renderWithApp(<VendorBundleEditor bundle={dearer} />, {
      signedIn: true,
      answer: api(dearer, (req) =>
        req.path === '/api/v1/vendor/bundles/bnd_1/publish'
          ? { status: 200, body: { bundle: published } }
          : null,
      ),
    });
    const box = screen.getByRole('checkbox', { name: m.confirmPriceAboveValue });
    expect((box as HTMLInputElement).checked).toBe(false);
    // Not confirmed: said at the checkbox, nothing sent.
    await ui.click(screen.getByRole('button', { name: 'Publish…' }));
    await ui.click(screen.getByRole('button', { name: 'Publish' }));
    const said =
      'The bundle costs $90.00, $12.00 more than its products bought separately ($78.00), so buyers save nothing. Lower the price, or confirm that you sell it above its parts.';
    expect(await screen.findAllByText(said)).toHaveLength(1);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(listing.writes(requests)).toEqual([]);
    // Confirmed: the publish call carries it.
    await ui.click(box);
    await ui.click(screen.getByRole('button', { name: 'Publish…' }));
    await ui.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() =>
      expect(listing.writes(requests).map((r) => [r.path, r.body])).toEqual([
        ['/api/v1/vendor/bundles/bnd_1/publish', { confirmPriceAboveValue: true }],
      ]),
    );
  });

  it('asks for no confirmation when the bundle saves buyers money', () => {
    renderWithApp(<VendorBundleEditor bundle={bundle()} />, {
      signedIn: true,
      answer: api(bundle()),
    });
    expect(screen.queryByRole('checkbox', { name: m.confirmPriceAboveValue })).toBeNull();
  });

  it("shows the server's field message when a product is not the vendor's", async () => {
    const ui = userEvent.setup();
    renderWithApp(<VendorBundleEditor bundle={bundle()} />, {
      signedIn: true,
      answer: api(bundle()),
    });
    await ui.type(screen.getByLabelText('Title'), ' 2');
    await ui.click(screen.getByRole('button', { name: 'Save' }));
    // Said once, by the picker, tied to the search box; the banner points there (issue 27).
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', FIELDS_NEED_ATTENTION);
    const search = screen.getByRole('combobox', { name: 'Find your products' });
    expect(search.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText(m.productUnknown)).toHaveLength(1);
  });

  it('asks before publishing, and shows what the server says publishing needs', async () => {
    const ui = userEvent.setup();
    const { requests } = renderWithApp(<VendorBundleEditor bundle={bundle()} />, {
      signedIn: true,
      answer: api(bundle()),
    });
    await ui.click(screen.getByRole('button', { name: 'Publish…' }));
    expect(screen.getByText(/Put this bundle on sale\?/)).toBeTruthy();
    expect(listing.writes(requests)).toEqual([]);
    await ui.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() =>
      expect(listing.writes(requests).map((r) => r.path)).toEqual([
        '/api/v1/vendor/bundles/bnd_1/publish',
      ]),
    );
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', FIELDS_NEED_ATTENTION);
    expect(screen.getAllByText(m.publishedProducts)).toHaveLength(1);
  });

  it('checks what publishing needs before asking the server', async () => {
    const ui = userEvent.setup();
    const lone = bundle({ products: [ribbon, draftScanner], price: null });
    const { requests } = renderWithApp(<VendorBundleEditor bundle={lone} />, {
      signedIn: true,
      answer: api(lone),
    });
    await ui.click(screen.getByRole('button', { name: 'Publish…' }));
    await ui.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText(m.priceRequired)).toBeTruthy();
    expect(screen.getByText(m.publishedProducts)).toBeTruthy();
    expect(listing.writes(requests)).toEqual([]);
  });

  it('asks before unpublishing, and links to the public page', async () => {
    const ui = userEvent.setup();
    const published = bundle({ status: 'published', imageUrl: '/files/public/bundles/c/1200.jpg' });
    const { requests } = renderWithApp(<LoadedBundleEditor id="bnd_1" />, {
      signedIn: true,
      answer: api(published),
    });
    await listing.unpublishAfterAsking(ui, requests, {
      noun: 'bundle',
      id: 'bnd_1',
      title: 'Momentum Kit',
      publicPath: '/b/bnd_1/momentum-kit',
    });
  });

  it('refuses a cover of the wrong type before sending it, and removes the cover after asking', async () => {
    const ui = userEvent.setup({ applyAccept: false });
    const covered = bundle({ imageUrl: '/files/public/bundles/bnd_1/a/1200.jpg' });
    const { requests } = renderWithApp(<VendorBundleEditor bundle={covered} />, {
      signedIn: true,
      answer: api(covered),
    });
    const svg = new File(['<svg/>'], 'cover.svg', { type: 'image/svg+xml' });
    await ui.upload(screen.getByLabelText('Replace the cover'), svg);
    expect(await screen.findByText(usersMessages.imageType)).toBeTruthy();
    expect(listing.writes(requests)).toEqual([]);
    await ui.click(screen.getByRole('button', { name: 'Remove cover' }));
    await ui.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('img', { name: 'Bundle cover' })).toBeNull());
    expect(listing.writes(requests).map((r) => `${r.method} ${r.path}`)).toEqual([
      'DELETE /api/v1/vendor/bundles/bnd_1/cover',
    ]);
  });

  it('says so when the bundle cannot be read, with a way back', async () => {
    renderWithApp(<LoadedBundleEditor id="bnd_1" />, { signedIn: true, answer: api(null) });
    expect(screen.getByText('Loading the bundle…')).toBeTruthy();
    expect(await screen.findByText(m.notFound)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to bundles' }).getAttribute('href')).toBe(
      '/vendor/bundles',
    );
  });
});

listing.describeTwoTabs({
  noun: 'bundle',
  make: bundle,
  editor: (loaded) => <VendorBundleEditor bundle={loaded} />,
  api,
  conflict: m.editConflict,
});

describe('the bundle list', () => {
  listing.itOffersTheFirst('bundle', <VendorBundleList />);

  it('shows status, products and price with edit links, filters and pages on', async () => {
    const ui = userEvent.setup();
    const { requests } = listing.renderTwoPages(
      'bundle',
      <VendorBundleList />,
      row(),
      row({ id: 'bnd_2', title: 'Second', price: null }),
    );
    const link = await screen.findByRole('link', { name: 'Momentum Kit' });
    expect(link.getAttribute('href')).toBe('/vendor/bundles/bnd_1');
    const tr = link.closest('tr')!;
    expect(within(tr).getByText('Published')).toBeTruthy();
    expect(tr.textContent).toContain('$60');
    expect(tr.textContent).toContain('3');
    await listing.pageOnAndBack(ui, requests, {
      first: 'Momentum Kit',
      second: 'Second',
      onSecond: (tr) => expect(tr.textContent).toContain('No price'),
    });
    await ui.selectOptions(screen.getByLabelText('Status'), 'draft');
    await waitFor(() => expect(requests.at(-1)!.query.get('status')).toBe('draft'));
    expect(requests.at(-1)!.query.get('cursor')).toBeNull();
  });

  it('shows a failed read with a retry that reads again', async () => {
    const ui = userEvent.setup();
    let calls = 0;
    renderWithApp(<VendorBundleList />, {
      signedIn: true,
      answer: () =>
        ++calls === 1
          ? { status: 503, body: { error: 'The service is busy.', code: 'service_unavailable' } }
          : { status: 200, body: { bundles: [row()], nextCursor: null } },
    });
    expect(await screen.findByText('The service is busy.')).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Momentum Kit' })).toBeTruthy();
  });
});
