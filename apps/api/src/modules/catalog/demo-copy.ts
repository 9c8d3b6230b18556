import { platformLabels, type AssetClass, type TradingPlatform } from '@tradeshelf/contract';
import { demoCourseCounts, demoCourseOutline } from './demo-courses.ts';
import type { DemoTemplate } from './demo-data.ts';

/**
 * A demo product's description, written per kind the way a vendor would describe it (issue 27).
 * Every line is something the product does here: what the billing promises follows its prices, and
 * a course's outline is the one its lessons are seeded from.
 */

const assetWords: Record<AssetClass, string> = {
  stocks: 'stock',
  options: 'options',
  futures: 'futures',
  forex: 'forex',
  crypto: 'crypto',
  indices: 'index',
  commodities: 'commodity',
};

/** "a, b and c". */
export function listWords(words: readonly string[]): string {
  if (words.length < 2) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** "3 lessons", "1 module". */
export const countOf = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function platformsOf(platforms: readonly TradingPlatform[]): string {
  return listWords(platforms.filter((p) => p !== 'other').map((p) => platformLabels[p]));
}

/** Platforms whose demo products deliver a file to download (`deliverables/demo-content.ts`). */
const filePlatforms: readonly TradingPlatform[] = [
  'mt4',
  'mt5',
  'ninjatrader',
  'ctrader',
  'tradestation',
];

/**
 * What an indicator, scanner or alert hands over after the purchase (issue 29): the files and the
 * thinkorswim link its demo delivery holds, with the set-up guide. Empty for the others.
 */
function inYourLibrary(p: DemoTemplate): string {
  const files = p.platforms.filter((x) => filePlatforms.includes(x)).map((x) => platformLabels[x]);
  const parts = [
    ...(files.length ? [`the ${listWords(files)} ${files.length > 1 ? 'files' : 'file'}`] : []),
    ...(p.platforms.includes('thinkorswim')
      ? ['a shared link that imports it into thinkorswim']
      : []),
  ];
  return parts.length
    ? ` After you buy, your library holds ${listWords(parts)}, and a set-up guide with the install steps.`
    : '';
}

function howToUse(p: DemoTemplate, community: string | null): string {
  const on = platformsOf(p.platforms);
  const traders = `${listWords(p.assets.map((a) => assetWords[a]))} traders`;
  const library = inYourLibrary(p);
  switch (p.kind) {
    case 'indicator':
      return `## How you use it\n\nAdd it to your ${on || 'charting platform'} chart like any other indicator: it works on every symbol and timeframe you chart, and redraws as new bars close.${library} Made for ${traders}.`;
    case 'scanner':
      return `## How you use it\n\nRun it on ${on || 'your platform'} and it lists the symbols that match while the session runs, so you look only at the charts worth a look.${library} Made for ${traders}.`;
    case 'alert':
      return `## How you use it\n\nSet it up once${on ? ` on ${on}` : ''} and the alerts come to you as they fire: you do not have to watch the screen.${library} Made for ${traders}.`;
    case 'community':
      return `## How you join\n\nAfter you buy, connect your Discord account from your library and you get the member role in ${community ?? 'the server'}. Made for ${traders}${on ? ` who chart on ${on}` : ''}.`;
    case 'app':
      return `## How you use it\n\nYour purchase comes with a licence key, the download${on ? ` for ${on}` : ''} and a set-up guide, all in your library. Activate the key on your machine; your apps page shows where it is active. Made for ${traders}.`;
    case 'course': {
      const outline = demoCourseOutline(p.title);
      const counts = demoCourseCounts(outline);
      return [
        `## What is inside\n\n${countOf(counts.modules, 'module')} and ${countOf(counts.lessons, 'lesson')}, video lessons with English captions and readings, and a worksheet to download:`,
        outline.map((m) => `- **${m.title}**: ${countOf(m.lessons.length, 'lesson')}`).join('\n'),
        'The first lesson is a free preview: watch it before you buy.',
      ].join('\n\n');
    }
  }
}

/** What the prices promise: subscriptions renew, a one-time price does not. */
function billingLine(prices: DemoTemplate['prices']): string {
  const recurring = prices.some((x) => x.scheme === 'recurring');
  const once = prices.some((x) => x.scheme === 'one_time');
  if (recurring && once)
    return 'Subscribe and keep access while your subscription runs, or pay once and keep it';
  if (recurring) return 'Access while your subscription runs; cancel any time from your orders';
  return 'One payment: it stays in your library';
}

export function demoDescription(
  p: DemoTemplate,
  vendor: { displayName: string; discord: string | null },
): string {
  return [
    `## What it does\n\n${p.summary}`,
    howToUse(p, vendor.discord),
    // Not "What you get": the product page derives that from what the product delivers.
    `## Access and support\n\n- ${billingLine(p.prices)}\n- Questions answered by ${vendor.displayName} through the contact page`,
  ].join('\n\n');
}
