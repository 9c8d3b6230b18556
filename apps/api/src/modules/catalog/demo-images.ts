import { chartSvg } from './pictures/chart.ts';
import {
  candles,
  clip,
  COVER,
  esc,
  FONT,
  hueOf,
  initials,
  LOGO,
  plainCandles,
  priceScale,
  rng,
  seedOf,
  SHARE,
  svg,
  type ProductPicture,
} from './pictures/draw.ts';
import { appSvg, calculatorSvg, communitySvg, courseSvg, planSvg } from './pictures/screens.ts';

/**
 * Demo pictures drawn as SVG in each product's platform style (ADR 026). Everything is derived from
 * the product's own fields through a seeded generator, so the same product gives the same bytes on
 * every machine, and the content hash of the SVG names the stored image.
 */

export { COVER, LOGO, SHARE, type ProductPicture };

/** The product's pictures: cover first, then a second view (another symbol, another screen). */
export function productSvgs(p: ProductPicture): string[] {
  // A desktop app's screen shows what it does: a calculator is no back-tester, a plan no app.
  const desktop = p.kind === 'app' && !p.platforms.some((x) => x !== 'other');
  if (desktop && p.tags.includes('plan')) return [planSvg(p)];
  if (desktop && p.tags.includes('position sizing'))
    return [calculatorSvg(p, 0), calculatorSvg(p, 1)];
  const draw =
    p.kind === 'community'
      ? communitySvg
      : p.kind === 'course'
        ? courseSvg
        : p.kind === 'app' && !p.platforms.some((x) => x !== 'other')
          ? appSvg
          : chartSvg;
  return [draw(p, 0), draw(p, 1)];
}

/** A vendor's logo: initials on its colour. */
export function logoSvg(name: string): string {
  const hue = hueOf(name);
  return svg(LOGO, LOGO, [
    `<defs><linearGradient id="lg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},65%,48%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},65%,30%)"/></linearGradient></defs>`,
    `<rect width="${LOGO}" height="${LOGO}" rx="56" fill="url(#lg)"/>`,
    `<text x="128" y="160" ${FONT} font-size="100" font-weight="bold" fill="#ffffff" text-anchor="middle">${esc(initials(name))}</text>`,
  ]);
}

/**
 * A storefront's banner (and share card): decoration only, a faint chart in the vendor's colour. The
 * page shows the name, logo and product count live beneath it; a picture would go stale (issue 27).
 */
export function vendorCardSvg(v: { displayName: string }): string {
  const { width: W, height: H } = SHARE;
  const hue = hueOf(v.displayName);
  const random = rng(seedOf(v.displayName));
  const data = candles(random, 60, 100);
  const parts = [
    `<defs><linearGradient id="vg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b0f17"/><stop offset="1" stop-color="hsl(${hue},45%,18%)"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#vg)"/>`,
    ...plainCandles(data, priceScale(data, 120, 400).y, {
      x0: 20,
      step: 20,
      body: 12,
      up: `hsl(${hue},70%,55%)`,
      down: '#64748b',
      minBody: 2,
      extra: 'opacity="0.3"',
    }),
  ];
  return svg(W, H, parts);
}

/** A bundle's cover: its products' covers fanned out, with the saving. */
export function bundleSvg(b: {
  title: string;
  vendorName: string;
  products: ProductPicture[];
  savingPercent: number;
}): string {
  const { width: W, height: H } = COVER;
  const hue = hueOf(b.title);
  const parts = [
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b0f17"/><stop offset="1" stop-color="hsl(${hue},50%,16%)"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>`,
  ];
  const shown = b.products.slice(0, 3);
  shown.forEach((p, i) => {
    const inner = productSvgs(p)[0]!.replace(/^<svg[^>]*>|<\/svg>$/g, '');
    const angle = (i - (shown.length - 1) / 2) * 7;
    parts.push(
      `<g transform="translate(${620 + i * 130} ${130 + i * 40}) rotate(${angle}) scale(0.42)"><rect x="-8" y="-8" width="1216" height="691" rx="14" fill="#ffffff" opacity="0.9"/><svg width="1200" height="675" viewBox="0 0 1200 675">${inner}</svg></g>`,
    );
  });
  parts.push(
    `<rect x="60" y="80" width="150" height="40" rx="8" fill="#f59e0b"/>`,
    `<text x="135" y="108" ${FONT} font-size="20" font-weight="bold" fill="#1f1300" text-anchor="middle">BUNDLE</text>`,
    `<text x="60" y="200" ${FONT} font-size="38" font-weight="bold" fill="#ffffff">${esc(clip(b.title, 26))}</text>`,
    `<text x="60" y="250" ${FONT} font-size="24" fill="#cbd5e1">${b.products.length} products by ${esc(clip(b.vendorName, 24))}</text>`,
  );
  b.products
    .slice(0, 4)
    .forEach((p, i) =>
      parts.push(
        `<text x="60" y="${330 + i * 40}" ${FONT} font-size="22" fill="#e2e8f0">• ${esc(clip(p.title, 30))}</text>`,
      ),
    );
  if (b.savingPercent > 0)
    parts.push(
      `<text x="60" y="${H - 70}" ${FONT} font-size="34" font-weight="bold" fill="#fbbf24">Save ${b.savingPercent}%</text>`,
    );
  return svg(W, H, parts);
}
