// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deliverableMessages as m } from '@tradeshelf/contract/client';
import type { VendorDeliverableVersion, VendorDelivery } from '@tradeshelf/contract';
import { renderWithApp, type Answer, type SeenRequest } from '../../../test/render.tsx';
import { checkDeliverableFile, ProductFiles, publishedByPlatform } from './files.tsx';
import { FakeXhr } from '../fake-xhr.ts';

const BASE = '/api/v1/vendor/products/prd_1';

const version = (over: Partial<VendorDeliverableVersion> = {}): VendorDeliverableVersion => ({
  id: 'ver_1',
  platform: 'mt5',
  version: '1.0',
  notes: '',
  notesHtml: '',
  fileName: 'SessionBox.ex5',
  sizeBytes: 1_258_291,
  sha256: 'ab'.repeat(32),
  link: null,
  releasedAt: '2026-11-12T10:00:00.000Z',
  publishedAt: '2026-11-12T10:00:00.000Z',
  current: true,
  downloads: 0,
  ...over,
});

const delivery = (versions: VendorDeliverableVersion[], over: Partial<VendorDelivery> = {}) => ({
  productId: 'prd_1',
  updatePolicy: 'lifetime' as const,
  guide: '',
  guideUpdatedAt: null,
  versions,
  ...over,
});

beforeEach(() => {
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(
  first: VendorDelivery,
  answer: (req: SeenRequest) => Answer | undefined = () => undefined,
) {
  const app = renderWithApp(<ProductFiles productId="prd_1" />, {
    signedIn: true,
    url: '/vendor/products/prd_1',
    answer: (req) =>
      answer(req) ??
      (req.method === 'GET' && req.path === `${BASE}/delivery`
        ? { status: 200, body: { delivery: first } }
        : { status: 404, body: { error: 'Not found.', code: 'not_found' } }),
  });
  const writes = () => app.requests.filter((r) => r.method !== 'GET');
  return { ...app, writes };
}

const file = (name: string, bytes = 16) => new File([new Uint8Array(bytes)], name);

describe('grouping and checks (pure)', () => {
  it('groups published versions by platform, current first; drafts are not among them', () => {
    const groups = publishedByPlatform(
      delivery([
        version({ id: 'd', version: '3.0', publishedAt: null, current: false }),
        version({ id: 'b', version: '2.0' }),
        version({ id: 'a', version: '1.0', current: false }),
        version({ id: 'c', platform: 'mt4', fileName: 'x.ex4' }),
      ]),
    );
    expect(groups.map((g) => [g.platform, g.current?.id, g.earlier.map((v) => v.id)])).toEqual([
      ['mt4', 'c', []],
      ['mt5', 'b', ['a']],
    ]);
  });

  it("refuses a file the platform does not take, or too large, with the contract's words", () => {
    expect(checkDeliverableFile('mt5', file('Box.ex5'))).toBeNull();
    expect(checkDeliverableFile('mt5', file('Box.EX5'))).toBeNull();
    expect(checkDeliverableFile('mt5', file('Box.ex4'))).toBe(m.wrongType);
    expect(checkDeliverableFile('ninjatrader', file('Box.exe'))).toBe(m.wrongType);
    const huge = file('big.zip');
    Object.defineProperty(huge, 'size', { value: 200 * 1024 * 1024 + 1 });
    expect(checkDeliverableFile('any', huge)).toBe(m.tooLarge);
  });
});

describe('Files and guide', () => {
  it('shows each platform’s current and earlier versions with downloads, and rolls back after a confirm', async () => {
    const v2 = version({ id: 'ver_2', version: '2.0', downloads: 7 });
    const v1 = version({ id: 'ver_1', version: '1.0', current: false, downloads: 1 });
    const { writes } = setup(delivery([v2, v1]), (req) =>
      req.method === 'POST' && req.path === `${BASE}/versions/ver_1/current`
        ? {
            status: 200,
            body: {
              delivery: delivery([
                { ...v2, current: false },
                { ...v1, current: true },
              ]),
              message: m.madeCurrent,
            },
          }
        : undefined,
    );
    const ui = userEvent.setup();
    const mt5 = await screen.findByRole('region', { name: 'MetaTrader 5 versions' });
    expect(within(mt5).getByTestId('current-version').textContent).toContain('v2.0');
    expect(within(mt5).getByTestId('current-version').textContent).toContain('7 downloads');
    expect(within(mt5).getByText(/1 download$/)).toBeTruthy();

    await ui.click(within(mt5).getByRole('button', { name: 'Make v1.0 current' }));
    expect(writes()).toEqual([]);
    await ui.click(screen.getByRole('button', { name: 'Make v1.0 current' }));
    await waitFor(() =>
      expect(screen.getByTestId('current-version').textContent).toContain('v1.0'),
    );
    expect(writes().map((r) => r.path)).toEqual([`${BASE}/versions/ver_1/current`]);
    expect(await screen.findByText(m.madeCurrent)).toBeTruthy();
  });

  it('uploads a file as a draft for the chosen platform and version, then publishes it with notes', async () => {
    // The picker's `accept` would hide the wrong file; the check behind it is what is tested.
    const draft = version({ id: 'ver_9', version: '1.0', publishedAt: null, current: false });
    const { writes } = setup(delivery([]), (req) =>
      req.method === 'POST' && req.path === `${BASE}/versions/ver_9/publish`
        ? {
            status: 200,
            body: {
              delivery: delivery([{ ...draft, publishedAt: draft.releasedAt, current: true }]),
              message: m.published,
            },
          }
        : undefined,
    );
    const ui = userEvent.setup({ applyAccept: false });
    expect(await screen.findByText('No files yet.')).toBeTruthy();
    const input = screen.getByLabelText(/^File for MetaTrader 5/) as HTMLInputElement;
    // No version yet: the file cannot be chosen.
    expect(input.disabled).toBe(true);
    await ui.type(screen.getByLabelText('Version number'), '1.0');
    expect(input.disabled).toBe(false);

    // A file of another platform is refused before anything is sent.
    await ui.upload(input, file('Box.ex4'));
    expect(screen.getByText(m.wrongType)).toBeTruthy();
    expect(FakeXhr.last).toBeNull();

    await ui.upload(screen.getByLabelText(/^File for MetaTrader 5/), file('SessionBox.ex5'));
    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toContain(`${BASE}/versions?platform=mt5&version=1.0`);
    expect(xhr.headers.authorization).toBe('Bearer access-token');
    expect((xhr.body!.get('file') as File).name).toBe('SessionBox.ex5');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    xhr.answer(201, { delivery: delivery([draft]), versionId: 'ver_9' });

    const box = await screen.findByRole('region', { name: 'Draft v1.0 for MetaTrader 5' });
    await ui.type(
      within(box).getByRole('textbox', { name: 'Release notes for v1.0' }),
      'First release',
    );
    await ui.click(within(box).getByRole('button', { name: 'Publish v1.0' }));
    await screen.findByRole('region', { name: 'MetaTrader 5 versions' });
    expect(screen.queryByTestId('draft-version')).toBeNull();
    expect(writes().map((r) => [r.path, r.body])).toEqual([
      [`${BASE}/versions/ver_9/publish`, { notes: 'First release' }],
    ]);
    expect(await screen.findByText(m.published)).toBeTruthy();
  });

  it('says a taken version number at the field, once', async () => {
    setup(delivery([]));
    const ui = userEvent.setup();
    await ui.type(await screen.findByLabelText('Version number'), '1.0');
    await ui.upload(screen.getByLabelText(/^File for MetaTrader 5/), file('Box.ex5'));
    FakeXhr.last!.answer(409, {
      error: m.versionTaken,
      code: 'conflict',
      fields: { version: m.versionTaken },
    });
    await screen.findByText(m.versionTaken);
    expect(screen.getAllByText(m.versionTaken)).toHaveLength(1);
    expect(screen.getByLabelText('Version number').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('See the message above.')).toBeTruthy();
  });

  it("shows an upload refused by its bytes in the server's words", async () => {
    setup(delivery([]));
    const ui = userEvent.setup();
    await ui.type(await screen.findByLabelText('Version number'), '1.0');
    await ui.upload(screen.getByLabelText(/^File for MetaTrader 5/), file('Box.zip'));
    FakeXhr.last!.answer(422, { error: m.archiveUnsafe, code: 'unprocessable' });
    expect(await screen.findByText(m.archiveUnsafe)).toBeTruthy();
    expect(screen.getAllByText(m.archiveUnsafe)).toHaveLength(1);
  });

  it('takes a link, not a file, for thinkorswim', async () => {
    const link = version({
      id: 'ver_5',
      platform: 'thinkorswim',
      fileName: null,
      sizeBytes: null,
      sha256: null,
      link: 'https://tos.mx/abc',
      publishedAt: null,
      current: false,
    });
    const { writes } = setup(delivery([]), (req) =>
      req.method === 'POST' && req.path === `${BASE}/links`
        ? { status: 201, body: { delivery: delivery([link]), versionId: 'ver_5' } }
        : undefined,
    );
    const ui = userEvent.setup();
    await ui.selectOptions(await screen.findByLabelText('Platform'), 'thinkorswim');
    expect(screen.queryByLabelText(/^File for/)).toBeNull();
    await ui.type(screen.getByLabelText('Version number'), '1.0');
    await ui.type(screen.getByLabelText('Shared-item link'), 'https://tos.mx/abc');
    await ui.click(screen.getByRole('button', { name: 'Add the link as a draft' }));
    expect(await screen.findByRole('region', { name: 'Draft v1.0 for thinkorswim' })).toBeTruthy();
    expect(writes().map((r) => r.body)).toEqual([
      { platform: 'thinkorswim', version: '1.0', url: 'https://tos.mx/abc' },
    ]);
  });

  it('deletes a draft only after a confirm', async () => {
    const draft = version({ id: 'ver_9', publishedAt: null, current: false });
    const { writes } = setup(delivery([draft]), (req) =>
      req.method === 'DELETE' && req.path === `${BASE}/versions/ver_9`
        ? { status: 200, body: { delivery: delivery([]) } }
        : undefined,
    );
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete draft v1.0' }));
    expect(writes()).toEqual([]);
    await ui.click(screen.getByRole('button', { name: 'Keep' }));
    await ui.click(screen.getByRole('button', { name: 'Delete draft v1.0' }));
    await ui.click(screen.getByRole('button', { name: 'Delete draft' }));
    await waitFor(() => expect(screen.queryByTestId('draft-version')).toBeNull());
    expect(writes().map((r) => [r.method, r.path])).toEqual([['DELETE', `${BASE}/versions/ver_9`]]);
  });

  it('saves the guide and the updates promise together; a guide too long is said at the guide', async () => {
    let calls = 0;
    const { writes } = setup(delivery([]), (req) => {
      if (req.method !== 'PUT') return undefined;
      calls += 1;
      return calls === 1
        ? { status: 400, body: { error: m.guide, code: 'validation', fields: { guide: m.guide } } }
        : {
            status: 200,
            body: {
              delivery: delivery([], {
                guide: '## Install',
                updatePolicy: 'year',
                guideUpdatedAt: '2026-11-20T10:00:00.000Z',
              }),
              message: m.saved,
            },
          };
    });
    const ui = userEvent.setup();
    await ui.type(await screen.findByRole('textbox', { name: 'Set-up guide' }), '## Install');
    await ui.selectOptions(screen.getByLabelText('Updates buyers get'), 'year');
    await ui.click(screen.getByRole('button', { name: 'Save guide and updates' }));
    expect(await screen.findByText(m.guide)).toBeTruthy();
    expect(screen.getAllByText(m.guide)).toHaveLength(1);
    await ui.click(screen.getByRole('button', { name: 'Save guide and updates' }));
    expect(await screen.findByText(m.saved)).toBeTruthy();
    expect(screen.queryByText(m.guide)).toBeNull();
    expect(writes().map((r) => r.body)).toEqual([
      { guide: '## Install', updatePolicy: 'year' },
      { guide: '## Install', updatePolicy: 'year' },
    ]);
  });

  it('adds a picture to the end of the guide as Markdown, shown in the preview; not a picture is refused', async () => {
    setup(delivery([], { guide: '## Install' }));
    const ui = userEvent.setup({ applyAccept: false });
    const input = await screen.findByLabelText('Add a picture to the guide');
    await ui.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText(/Upload a PNG, JPEG or WebP image/)).toBeTruthy();
    expect(FakeXhr.last).toBeNull();
    await ui.upload(input, new File([new Uint8Array(10)], 'inputs.png', { type: 'image/png' }));
    const xhr = FakeXhr.last!;
    expect(xhr.url).toContain(`${BASE}/guide/images`);
    const url = '/files/public/guides/prd_1/abc/1200.jpg';
    xhr.answer(201, { url, width: 1200, height: 675, markdown: `![${m.guideImageAlt}](${url})` });
    const text = screen.getByRole('textbox', { name: 'Set-up guide' }) as HTMLTextAreaElement;
    await waitFor(() => expect(text.value).toBe(`## Install\n\n![${m.guideImageAlt}](${url})\n`));
    expect(await screen.findByText(m.guideImageAdded)).toBeTruthy();
    await ui.click(screen.getByRole('tab', { name: 'Preview' }));
    const img = (await screen.findByTestId('markdown-preview')).querySelector('img');
    expect(img?.getAttribute('src')).toBe(url);
    expect(img?.getAttribute('alt')).toBe(m.guideImageAlt);
  });
});
