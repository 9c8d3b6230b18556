import AxeBuilder from '@axe-core/playwright';
import type { Page } from './test.ts';

/**
 * What axe detects against WCAG 2.1 A and AA on the page as it stands: empty when clean. It waits
 * for the network to go idle first, unless `idle` is false (a page whose live stream keeps it busy).
 */
export async function a11yViolations(page: Page, { idle = true }: { idle?: boolean } = {}) {
  if (idle) await page.waitForLoadState('networkidle');
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
  }));
}
