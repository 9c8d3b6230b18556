import type { Page } from './test.ts';

/** Every CSP violation the page reports, from before its first script runs. */
export async function recordViolations(page: Page) {
  const refused: string[] = [];
  await page.exposeFunction('__cspViolation', (v: string) => refused.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __cspViolation(v: string): void }).__cspViolation;
      report(`${e.effectiveDirective} ${e.blockedURI}`);
    });
  });
  return refused;
}
