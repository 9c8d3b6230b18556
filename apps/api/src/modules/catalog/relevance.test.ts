import { catalogRoutes, type BundleCard, type ProductCard } from '@tradeshelf/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.ts';
import { demoProducts } from './demo-data.ts';
import { relevanceCases, type RelevanceCase } from './relevance.ts';
import { seedDemoCatalog } from './seed.ts';

/** Share of the relevance set that must pass: a ranking change may not trade it away unnoticed. */
const PASS_THRESHOLD = 1;

const t = useTestApp();
beforeAll(async () => {
  await seedDemoCatalog(t.database.db);
});

/** Asset classes are not on cards: they come from the demo catalogue, by title. */
const assetsByTitle = new Map(
  Object.values(demoProducts)
    .flat()
    .map((p) => [p.title, p.assets as string[]]),
);

/** Why a case fails (empty when it passes). */
function problems(
  c: RelevanceCase,
  body: {
    products: ProductCard[];
    bundles: BundleCard[];
    didYouMean: string | null;
    suggestions: Array<{ q: string }>;
  },
): string[] {
  const top = body.products.slice(0, 3);
  const titles = top.map((p) => p.title);
  const out: string[] = [];
  for (const title of c.top ?? []) if (!titles.includes(title)) out.push(`no "${title}"`);
  if (c.anyOf && !c.anyOf.some((title) => titles.includes(title)))
    out.push(`none of ${c.anyOf.join(', ')}`);
  if (c.every) {
    const { kind, platform, asset } = c.every;
    if (!top.length) out.push('no products');
    for (const p of top) {
      if (kind && p.kind !== kind) out.push(`"${p.title}" is a ${p.kind}`);
      if (platform && !p.platforms.includes(platform)) out.push(`"${p.title}" not on ${platform}`);
      if (asset && !assetsByTitle.get(p.title)?.includes(asset))
        out.push(`"${p.title}" not for ${asset}`);
    }
  }
  const bundleTitles = body.bundles.slice(0, 3).map((b) => b.title);
  for (const title of c.bundles ?? [])
    if (!bundleTitles.includes(title)) out.push(`no bundle "${title}"`);
  if (c.didYouMean !== undefined && body.didYouMean !== c.didYouMean)
    out.push(`didYouMean ${JSON.stringify(body.didYouMean)}`);
  if (c.suggests) {
    if (body.products.length) out.push('found products');
    const offered = body.suggestions.map((s) => s.q);
    for (const q of c.suggests) if (!offered.includes(q)) out.push(`no suggestion "${q}"`);
  }
  return out.length ? [`${JSON.stringify(c.q)} → [${titles.join(' | ')}]: ${out.join('; ')}`] : [];
}

describe('relevance set', () => {
  it(`brings what traders look for into the first three results (≥ ${PASS_THRESHOLD * 100} %)`, async () => {
    expect(relevanceCases.length).toBeGreaterThanOrEqual(50);
    const failures: string[] = [];
    for (const c of relevanceCases) {
      const res = await t.call(catalogRoutes.search, { query: { q: c.q, ...c.params } });
      expect(res.statusCode, c.q).toBe(200);
      failures.push(...problems(c, res.json()));
    }
    const share = 1 - failures.length / relevanceCases.length;
    console.log(
      `relevance set: ${relevanceCases.length - failures.length}/${relevanceCases.length} pass (${(share * 100).toFixed(1)} %)` +
        failures.map((f) => `\n  ✗ ${f}`).join(''),
    );
    expect(share, failures.join('\n')).toBeGreaterThanOrEqual(PASS_THRESHOLD);
  });
});
