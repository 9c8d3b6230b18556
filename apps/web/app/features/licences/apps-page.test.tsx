// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Licence } from '@tradeshelf/contract';
import { AppsPage } from '../../routes/apps.tsx';
import { formatDate } from '../../lib/format.ts';
import { renderWithApp, type Answer, type SeenRequest } from '../../test/render.tsx';
import { startDownload } from './navigation.ts';
import { activation, licence } from './test-fixtures.ts';

// Unit files share their worker's modules (vitest.config.ts): evaluate them afresh, so the mock
// below applies even if an earlier file in the worker imported the real module.
vi.hoisted(() => vi.resetModules());

vi.mock('./navigation.ts', () => ({ startDownload: vi.fn() }));
afterEach(() => {
  cleanup();
  vi.mocked(startDownload).mockClear();
  vi.restoreAllMocks();
});

const NEW_KEY = 'TS-AAAAA-BBBBB-CCCCC-DDDDD';
const limited = { error: 'Too many attempts. Try again in 5 minutes.', code: 'rate_limited' };
const downloadLink = {
  url: '/files/licences/builds/demo/tradeshelf-licence-demo-1.0.0.zip?exp=1&sig=x',
  expiresAt: '2026-11-22T10:15:00.000Z',
  build: licence().build!,
};

/** The API as the page sees it: a list that answers each change with the licence as it stands. */
function setup(licences: Licence[], other?: (req: SeenRequest) => Answer | undefined) {
  let list = licences;
  const app = renderWithApp(<AppsPage />, {
    signedIn: true,
    url: '/apps',
    answer: (req) => {
      const answer = other?.(req);
      if (answer) return answer;
      const m = /^\/api\/v1\/licence\/([^/]+)(?:\/(.+))?$/.exec(req.path);
      if (req.path === '/api/v1/licence') return { status: 200, body: { licences: list } };
      const current = list.find((l) => l.id === m?.[1]);
      if (!m || !current) return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
      const put = (next: Licence) => {
        list = list.map((l) => (l.id === next.id ? next : l));
        return { status: 200, body: { licence: next } };
      };
      if (req.method === 'DELETE' && m[2]?.startsWith('activations/'))
        return put({
          ...current,
          activations: current.activations.filter((a) => `activations/${a.id}` !== m[2]),
        });
      if (req.method === 'POST' && m[2] === 'reset')
        return put({
          ...current,
          key: NEW_KEY,
          activations: [],
          resetsLeft: current.resetsLeft - 1,
        });
      if (req.method === 'GET' && m[2] === 'download') return { status: 200, body: downloadLink };
      return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
    },
  });
  return { ...app, ui: userEvent.setup() };
}

const card = (title: string) =>
  screen
    .getAllByTestId('licence-card')
    .find((el) => within(el).queryByRole('heading', { name: title }))!;

describe('/apps', () => {
  it('shows each app: product link, vendor, status in words, key, devices and what is left', async () => {
    setup([
      licence({
        activations: [
          activation(),
          activation({
            id: 'act_2',
            name: 'Office PC',
            binding: 'device',
            fingerprint: 'fp-7f3a9c21',
          }),
        ],
        resetsLeft: 2,
      }),
      licence({
        id: 'lic_2',
        status: 'revoked',
        message: 'Revoked: the purchase was refunded.',
        product: { id: 'prd_copier', slug: 'trade-copier-pro', title: 'Trade Copier Pro' },
        activations: [],
      }),
      licence({
        id: 'lic_3',
        expiresAt: '2026-12-24T10:00:00.000Z',
        message: 'Active until 2026-12-24.',
        product: { id: 'prd_journal', slug: 'edge-journal', title: 'Edge Journal' },
        binding: null,
        activations: [],
      }),
    ]);
    expect(screen.getByText('Loading your apps…')).toBeTruthy();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Apps and licences' }),
    ).toBeTruthy();
    const grid = await waitFor(() => card('Grid Guardian EA'));
    const g = within(grid);
    expect(g.getByRole('link', { name: 'Grid Guardian EA' }).getAttribute('href')).toBe(
      '/p/prd_grid/grid-guardian-ea',
    );
    expect(g.getByText('by Pip Hunters')).toBeTruthy();
    expect(g.getByTestId('licence-status').textContent).toBe('Active');
    expect(g.getByRole<HTMLInputElement>('textbox', { name: 'Licence key' }).value).toBe(
      'TS-7K2QF-9MXWD-4HB8R-ZT3NC',
    );
    expect(g.getByTestId('licence-activations').textContent).toBe('(2 of 3 in use)');
    const devices = g.getAllByTestId('licence-device').map((d) => d.textContent);
    expect(devices[0]).toContain('MetaTrader account: 50012345');
    expect(devices[1]).toContain('Device fingerprint: fp-7f3a9c21');
    expect(devices[1]).toContain('Last seen');
    expect(g.getByText('This app activates per MetaTrader account.')).toBeTruthy();
    expect(g.getByTestId('licence-resets-left').textContent).toBe('2 of 3 resets left');
    expect(g.getByTestId('licence-download').hasAttribute('disabled')).toBe(false);

    // Ended: why, and no new key or download for it.
    const copier = within(card('Trade Copier Pro'));
    expect(copier.getByTestId('licence-status').textContent).toBe(
      'Revoked: the purchase was refunded.',
    );
    expect(copier.getByTestId('licence-reset').hasAttribute('disabled')).toBe(true);
    expect(copier.getByText('Only an active licence can get a new key.')).toBeTruthy();
    expect(copier.getByTestId('licence-download').hasAttribute('disabled')).toBe(true);
    expect(copier.getByText('Downloads stop when the licence is no longer active.')).toBeTruthy();
    expect(copier.getByTestId('licence-no-devices')).toBeTruthy();

    const journal = within(card('Edge Journal'));
    expect(journal.getByTestId('licence-status').textContent).toBe(
      `Active · expires on ${formatDate('2026-12-24T10:00:00.000Z')}`,
    );
  });

  it('Copy puts the key on the clipboard and says "Copied" in a live region', async () => {
    const { ui } = setup([licence()]);
    const grid = within(await waitFor(() => card('Grid Guardian EA')));
    const live = grid.getByTestId('licence-copied');
    expect(live.getAttribute('aria-live')).toBe('polite');
    expect(live.textContent).toBe('');
    await ui.click(grid.getByRole('button', { name: 'Copy the key for Grid Guardian EA' }));
    expect(await navigator.clipboard.readText()).toBe('TS-7K2QF-9MXWD-4HB8R-ZT3NC');
    await waitFor(() => expect(live.textContent).toBe('Copied'));
  });

  it('when the clipboard is refused, the key is selected and the page says how to copy it', async () => {
    const { ui } = setup([licence()]);
    const grid = within(await waitFor(() => card('Grid Guardian EA')));
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('Denied', 'NotAllowedError'),
    );
    await ui.click(grid.getByRole('button', { name: /^Copy/ }));
    const field = grid.getByRole<HTMLInputElement>('textbox', { name: 'Licence key' });
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, field.value.length]);
    expect(grid.getByTestId('licence-copied').textContent).toMatch(
      /The key is selected: press Ctrl\+C/,
    );
  });

  it('Deactivate asks first; Cancel gives the focus back; confirming frees the slot', async () => {
    const { ui, requests } = setup([licence()]);
    const grid = within(await waitFor(() => card('Grid Guardian EA')));
    const open = () => grid.getByRole('button', { name: 'Deactivate IC Markets live' });
    await ui.click(open());
    const step = grid.getByRole('group', { name: 'Deactivate “IC Markets live”?' });
    expect(document.activeElement).toBe(step);
    expect(step.textContent).toContain('stops working the next time it checks the licence');
    await ui.keyboard('{Escape}');
    expect(grid.queryByRole('group', { name: /^Deactivate/ })).toBeNull();
    expect(document.activeElement).toBe(open());
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);

    await ui.click(open());
    await ui.click(grid.getByTestId('licence-device-deactivate-confirm'));
    await waitFor(() => expect(grid.queryAllByTestId('licence-device')).toHaveLength(0));
    const del = requests.find((r) => r.method === 'DELETE')!;
    expect(del.path).toBe('/api/v1/licence/lic_1/activations/act_1');
    expect(del.headers.get('authorization')).toBe('Bearer access-token');
    expect(grid.getByTestId('licence-activations').textContent).toBe('(0 of 3 in use)');
    expect(document.activeElement).toBe(grid.getByRole('heading', { name: /^Devices/ }));
    expect(await screen.findByText('“IC Markets live” deactivated.')).toBeTruthy();
  });

  it('a refused deactivation shows the API’s words in the step; one already gone reloads the list', async () => {
    let limit = true;
    const { ui, requests } = setup([licence()], (req) => {
      // Deactivated from the app meanwhile: the list no longer has it either.
      if (!limit && req.path === '/api/v1/licence')
        return { status: 200, body: { licences: [licence({ activations: [] })] } };
      if (req.method !== 'DELETE') return undefined;
      return limit
        ? { status: 429, body: limited }
        : {
            status: 404,
            body: {
              error: 'That activation does not exist (it may already be deactivated).',
              code: 'not_found',
            },
          };
    });
    const grid = within(await waitFor(() => card('Grid Guardian EA')));
    await ui.click(grid.getByRole('button', { name: /^Deactivate/ }));
    await ui.click(grid.getByTestId('licence-device-deactivate-confirm'));
    const step = grid.getByRole('group', { name: /^Deactivate/ });
    expect((await within(step).findByRole('alert')).textContent).toBe(limited.error);
    expect(grid.getAllByTestId('licence-device')).toHaveLength(1);
    // Cancel and open again: the old failure is gone with the step.
    await ui.click(within(step).getByRole('button', { name: 'Cancel' }));
    await ui.click(grid.getByRole('button', { name: /^Deactivate/ }));
    expect(
      within(grid.getByRole('group', { name: /^Deactivate/ })).queryByRole('alert'),
    ).toBeNull();

    limit = false;
    const lists = requests.filter((r) => r.path === '/api/v1/licence').length;
    await ui.click(grid.getByTestId('licence-device-deactivate-confirm'));
    await waitFor(() => expect(grid.queryAllByTestId('licence-device')).toHaveLength(0));
    // The step went with its row: the API's words stay on screen as a toast.
    expect(
      screen.getByText('That activation does not exist (it may already be deactivated).'),
    ).toBeTruthy();
    expect(requests.filter((r) => r.path === '/api/v1/licence').length).toBe(lists + 1);
    expect(document.activeElement).toBe(grid.getByRole('heading', { name: /^Devices/ }));
  });

  it('Reset key says what stops working, then shows the new key with one reset fewer', async () => {
    const { ui, requests } = setup([licence({ resetsLeft: 2 })]);
    const grid = within(await waitFor(() => card('Grid Guardian EA')));
    await ui.click(grid.getByTestId('licence-reset'));
    const step = grid.getByRole('group', { name: 'Reset the key for Grid Guardian EA?' });
    expect(document.activeElement).toBe(step);
    expect(step.textContent).toContain('the current one stops working at once');
    expect(step.textContent).toContain('The device it is active on is deactivated');
    expect(step.textContent).toContain('You can reset this key 2 more times.');
    await ui.click(grid.getByTestId('licence-reset-confirm'));
    const field = grid.getByRole<HTMLInputElement>('textbox', { name: 'Licence key' });
    await waitFor(() => expect(field.value).toBe(NEW_KEY));
    expect(requests.find((r) => r.method === 'POST')!.path).toBe('/api/v1/licence/lic_1/reset');
    expect(grid.getByTestId('licence-resets-left').textContent).toBe('1 of 3 resets left');
    expect(grid.getByTestId('licence-no-devices')).toBeTruthy();
    expect(document.activeElement).toBe(field);
  });

  it('a reset the API refuses says why; with none left the button says so and is off', async () => {
    const used =
      'You have used all 3 key resets for this licence. Contact support if you need another.';
    const { ui } = setup(
      [
        licence(),
        licence({ id: 'lic_2', resetsLeft: 0, product: { ...licence().product, title: 'Spent' } }),
      ],
      (req) =>
        req.method === 'POST'
          ? { status: 422, body: { error: used, code: 'business_rule' } }
          : undefined,
    );
    const grid = within(await waitFor(() => card('Grid Guardian EA')));
    await ui.click(grid.getByTestId('licence-reset'));
    await ui.click(grid.getByTestId('licence-reset-confirm'));
    expect(
      (await within(grid.getByRole('group', { name: /^Reset/ })).findByRole('alert')).textContent,
    ).toBe(used);
    const spent = within(card('Spent'));
    expect(spent.getByTestId('licence-reset').hasAttribute('disabled')).toBe(true);
    expect(spent.getByTestId('licence-resets-left').textContent).toBe(used);
  });

  it('Download asks for a signed link and hands it to the browser; a refusal is shown', async () => {
    let refuse = false;
    const { ui, requests } = setup([licence()], (req) =>
      refuse && req.path.endsWith('/download')
        ? {
            status: 422,
            body: {
              error: 'Downloads stop when the licence is no longer active.',
              code: 'licence_inactive',
            },
          }
        : undefined,
    );
    const grid = within(await waitFor(() => card('Grid Guardian EA')));
    await ui.click(grid.getByRole('button', { name: 'Download Grid Guardian EA' }));
    await waitFor(() => expect(startDownload).toHaveBeenCalledWith(downloadLink.url));
    expect(requests.find((r) => r.path.endsWith('/download'))!.path).toBe(
      '/api/v1/licence/lic_1/download',
    );
    expect(
      grid
        .getByRole('link', { name: /download tradeshelf-licence-demo-1\.0\.0\.zip/ })
        .getAttribute('href'),
    ).toBe(downloadLink.url);
    refuse = true;
    await ui.click(grid.getByRole('button', { name: 'Download Grid Guardian EA' }));
    expect((await grid.findByRole('alert')).textContent).toBe(
      'Downloads stop when the licence is no longer active.',
    );
    expect(startDownload).toHaveBeenCalledTimes(1);
  });

  it('no licences: says so and points at the apps category', async () => {
    setup([]);
    expect(await screen.findByText('You have no apps yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse apps' }).getAttribute('href')).toBe(
      '/search?category=apps',
    );
  });

  it('a failed load shows the API’s words and Try again loads it again', async () => {
    let fail = true;
    const { ui } = setup([licence()], (req) =>
      fail && req.path === '/api/v1/licence'
        ? {
            status: 503,
            body: { error: 'The service is busy. Try again shortly.', code: 'service_unavailable' },
          }
        : undefined,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The service is busy. Try again shortly.');
    fail = false;
    await ui.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Grid Guardian EA' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
