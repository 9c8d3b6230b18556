import { test as base, type BrowserContext, type Page } from '@playwright/test';

export * from '@playwright/test';

/**
 * Our pages start their scripts after the first paint (ADR 069), so the `load` that `goto` waits
 * for can come before the page answers to clicks. Every page a spec opens, in any context, waits
 * after `goto` and `reload` until the app says it hydrated (`<html data-hydrated>`); pages the app
 * does not render (API docs, the sandboxes' pages, JSON) have no router context and pass at once.
 */
async function untilHydrated(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        !('__reactRouterContext' in window) || document.documentElement.dataset.hydrated === 'true',
      null,
      { timeout: HYDRATION_TIMEOUT_MS },
    )
    .catch((err: Error) => {
      throw new Error(
        `${page.url()} did not hydrate within ${HYDRATION_TIMEOUT_MS / 1000} s (no <html data-hydrated>): ${err.message}`,
      );
    });
}

/** A page hydrates within seconds even under CI's load; after a script error it never does. */
const HYDRATION_TIMEOUT_MS = 30_000;

type WaitUntil = NonNullable<Parameters<Page['goto']>[1]>['waitUntil'];
/** A spec that asks for an earlier moment (`commit`, `domcontentloaded`) gets that moment. */
const waitsForLoad = (waitUntil: WaitUntil) =>
  waitUntil === undefined || waitUntil === 'load' || waitUntil === 'networkidle';

const watched = new WeakSet<Page>();

function watchPage(page: Page): Page {
  if (watched.has(page)) return page;
  watched.add(page);
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (waitsForLoad(options?.waitUntil)) await untilHydrated(page);
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if (waitsForLoad(options?.waitUntil)) await untilHydrated(page);
    return response;
  };
  return page;
}

function watchContext(context: BrowserContext): BrowserContext {
  for (const page of context.pages()) watchPage(page);
  context.on('page', watchPage);
  const newPage = context.newPage.bind(context);
  context.newPage = async () => watchPage(await newPage());
  return context;
}

export const test = base.extend<object, object>({
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      const newPage = browser.newPage.bind(browser);
      browser.newContext = async (options) => watchContext(await newContext(options));
      browser.newPage = async (options) => watchPage(await newPage(options));
      await use(browser);
    },
    { scope: 'worker' },
  ],
  context: async ({ context }, use) => {
    await use(watchContext(context));
  },
});
