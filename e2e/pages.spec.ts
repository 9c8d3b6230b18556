import { expect, test } from './test.ts';
import { a11yViolations } from './axe.ts';
import { mailbox } from './mailbox.ts';

const policyPages = [
  ['Contact', '/contact', 'Contact support'],
  ['Terms', '/terms', 'Terms of service and sale'],
  ['Privacy', '/privacy', 'Privacy policy'],
  ['Refund policy', '/refund-policy', 'Refund policy'],
  ['Risk disclosure', '/risk-disclosure', 'Trading risk disclosure'],
] as const;

// One test per page: five pages with an accessibility scan each took 55 s of the 60 s one test gets
// when CI runs the suite beside `npm test`; apart, the workers share them.
for (const [link, path, heading] of policyPages)
  test(`the footer links ${link}, server-rendered`, async ({ page, request, baseURL }) => {
    // Rendered on the server: title, description, canonical, the heading and the footer in the HTML.
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<title>${heading} · Tradeshelf</title>`);
    expect(html).toMatch(/<meta name="description" content="[^"]{60,}"/);
    expect(html).toContain(`<link rel="canonical" href="${baseURL}${path}"/>`);
    expect(html).toContain(`>${heading}</h1>`);
    for (const [, href] of policyPages) expect(html).toContain(`href="${href}"`);

    // Reachable from the footer of any page.
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: link, exact: true }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(await a11yViolations(page), path).toEqual([]);
  });

test('the policy pages promise what the product does', async ({ request }) => {
  const refunds = await (await request.get('/refund-policy')).text();
  for (const phrase of ['Duplicate payments are refunded automatically', 'you pay nothing'])
    expect(refunds).toContain(phrase);
  expect(await (await request.get('/risk-disclosure')).text()).toContain(
    'Past performance does not predict future results',
  );
  const terms = await (await request.get('/api/v1/platform/terms')).json();
  const termsHtml = await (await request.get('/terms')).text();
  expect(termsHtml).toContain(
    `<strong>${terms.platformFee.bps / 100}% + $${(terms.platformFee.fixed / 100).toFixed(2)}<!-- --> of each payment</strong>`,
  );
});

test('a missing page answers 404 inside the normal header and footer', async ({
  page,
  request,
}) => {
  for (const path of ['/no-such-page', '/p/prd_missing/anything']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    const html = await res.text();
    expect(html).toContain('aria-label="Main"');
    expect(html).toContain('aria-label="Footer"');
    expect(html).toContain('Page not found');

    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect(
      page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }),
    ).toBeVisible();
    expect(await a11yViolations(page)).toEqual([]);
  }
  // The header works from the error page.
  await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
});

test('/vendor/login quotes the fee checkout charges, read from the configuration', async ({
  page,
  request,
}) => {
  const { platformFee } = await (await request.get('/api/v1/platform/terms')).json();
  const fee = `${platformFee.bps / 100}% + $${(platformFee.fixed / 100).toFixed(2)}`;
  // What the page says, without the inlined stylesheet's own percentages (ADR 025).
  const html = (await (await request.get('/vendor/login')).text()).replace(
    /<style\b[^>]*>[\s\S]*?<\/style>/g,
    '',
  );
  expect(html).toContain(fee);
  expect(html).not.toMatch(/\b8 ?%/);
  expect(html).not.toMatch(/weekly payouts|every week/i);

  await page.goto('/vendor/login');
  await expect(page.getByTestId('platform-fee')).toHaveText(fee);
  expect(await a11yViolations(page)).toEqual([]);
});

test('/vendor/login never sends a signed-in person to a login form, and promises only what exists', async ({
  page,
}) => {
  await page.goto('/vendor/login');
  await expect(page.getByRole('link', { name: 'Log in and become a vendor' })).toBeVisible();
  await expect(page.locator('#main')).not.toContainText('no self-serve listing editor');
  for (const [email, cta] of [
    ['buyer@demo.tradeshelf.test', 'Become a vendor'],
    ['vendor@demo.tradeshelf.test', 'Open your workspace'],
  ] as const) {
    await page.goto('/login?next=/vendor/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('tradeshelf-demo');
    await page.getByRole('button', { name: 'Log in' }).click();
    // The session is stored 5 s after the answer (docs/product.md#sessions), then `next` is followed.
    await expect(page).toHaveURL(/\/vendor\/login$/, { timeout: 15_000 });
    await expect(page.getByRole('link', { name: cta })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Log in and become a vendor' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Create an account' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Log out' }).first().click();
    await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
  }
});

test('contact: field messages, then the message is sent, confirmed and mailed', async ({
  page,
}) => {
  const email = `contact-${Date.now()}@example.com`;
  await page.goto('/contact');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Enter your name.')).toBeVisible();
  await expect(page.getByText('Enter your e-mail address.')).toBeVisible();
  await expect(page.getByText('Tell us a little more: at least 10 characters.')).toBeVisible();
  await expect(page.getByLabel('Your name')).toBeFocused();
  expect(await a11yViolations(page)).toEqual([]);

  await page.getByLabel('Your name').fill('Ada Trader');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Subject').fill('Refund for a duplicate order');
  await page.getByLabel('Message').fill('I was charged twice for the same indicator yesterday.');
  await page.getByLabel('Order or receipt number (optional)').fill('TS-2026-001000');
  // A vendor that does not exist is refused by the server, in its field.
  await page.getByLabel('Vendor (optional)').fill('no-such-vendor');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('We could not find a vendor at that address.')).toBeVisible();
  await expect(page.getByLabel('Vendor (optional)')).toBeFocused();
  await page.getByLabel('Vendor (optional)').fill('');
  await page.getByRole('button', { name: 'Send message' }).click();

  await expect(page.getByRole('heading', { name: 'Message sent' })).toBeVisible();
  await expect(page.locator('#main').getByRole('status')).toContainText(email);
  expect(await a11yViolations(page)).toEqual([]);
  // Support gets it replying to the sender; the sender gets a confirmation replying to support.
  await expect
    .poll(() => mailbox.mailsTo(email).map((m) => m.subject.replace(/\(msg_[\w-]+\)/, '(ref)')))
    .toEqual(['We received your message (ref)']);
  expect(mailbox.mailsTo(email)[0]!.replyTo).toBe('support@tradeshelf.local');
  // The two mails leave separately: support's may arrive after the sender's confirmation.
  await expect
    .poll(() =>
      mailbox
        .mailsTo('support@tradeshelf.local')
        .filter((m) => m.subject === 'Contact form: Refund for a duplicate order'),
    )
    .toEqual([{ subject: 'Contact form: Refund for a duplicate order', replyTo: email }]);
});

test('contact from a product page names its vendor, who gets a copy', async ({ page, request }) => {
  const { products } = (await (
    await request.get('/api/v1/products/term/search?q=rsi&limit=1')
  ).json()) as {
    products: Array<{ id: string; slug: string; vendor: { displayName: string } }>;
  };
  const product = products[0]!;
  await page.goto(`/p/${product.id}/${product.slug}`);
  await page.getByRole('link', { name: 'Contact the vendor' }).click();
  await expect(page).toHaveURL(/\/contact\?vendor=/);
  await expect(page.getByText(`${product.vendor.displayName} gets a copy`)).toBeVisible();
  await page.getByLabel('Your name').fill('Ada Trader');
  await page.getByLabel('Email').fill(`vendor-q-${Date.now()}@example.com`);
  await page.getByLabel('Subject').fill('Does it work on MT5?');
  await page.getByLabel('Message').fill('Before I buy: does the indicator run on MetaTrader 5?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.locator('#main').getByRole('status')).toContainText(
    `A copy went to ${product.vendor.displayName}.`,
  );
});
