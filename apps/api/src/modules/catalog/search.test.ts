import {
  catalogRoutes,
  type BundleCard,
  type ProductCard,
  type SearchSuggestion,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBundle, createProduct, createVendor } from '../../../test/factories/catalog.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

// The search index (postings, lexicon, spelling vocabulary) is kept by triggers on products: these tests
// change products with plain SQL, as any writer would, and look only at what search answers.
let t: TestApp;
let vendorId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  // Results are read fresh on every call: the result-id cache would hide the index following edits.
  t = await startTestApp({ SEARCH_CACHE_SECONDS: '0' });
  vendorId = (await createVendor(t)).id;
  const make = async (key: string, o: Parameters<typeof createProduct>[2]) => {
    ids[key] = (await createProduct(t, vendorId, o)).id;
  };
  await make('both', { title: 'Orderflow Heatmap Pro', tags: ['heatmap'], amount: 5000 });
  await make('titleAndTag', { title: 'Orderflow Scanner', tags: ['heatmap'], amount: 3000 });
  await make('tags', { title: 'Liquidity Map', tags: ['orderflow', 'heatmap'], amount: 1000 });
  await make('described', {
    title: 'Session Tool',
    description: 'Built on orderflow heatmap data.',
    amount: 500,
  });
  await make('oneWord', { title: 'Orderflow Basics', kind: 'course', amount: 2000 });
});
afterAll(async () => {
  await t?.close();
});

const search = async (query: Record<string, string>) => {
  const res = await t.call(catalogRoutes.search, { query });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    products: ProductCard[];
    bundles: BundleCard[];
    nextCursor: string | null;
    didYouMean: string | null;
    suggestions: SearchSuggestion[];
  };
};
const keysOf = (products: ProductCard[]) =>
  products.map((p) => Object.keys(ids).find((k) => ids[k] === p.id) ?? p.title);

describe('search ranking', () => {
  it('ranks words in the title over tags, and description mentions last', async () => {
    expect(keysOf((await search({ q: 'orderflow heatmap' })).products)).toEqual([
      'both',
      'titleAndTag',
      'tags',
      'described',
    ]);
  });

  it('sorts title and tag matches first, then description mentions, each in the chosen order', async () => {
    expect(keysOf((await search({ q: 'orderflow heatmap', sort: 'price_asc' })).products)).toEqual([
      'tags',
      'titleAndTag',
      'both',
      'described',
    ]);
    expect(keysOf((await search({ q: 'orderflow heatmap', sort: 'price_desc' })).products)).toEqual(
      ['both', 'titleAndTag', 'tags', 'described'],
    );
  });

  it('completes the word being typed and filters the completions', async () => {
    expect(keysOf((await search({ q: 'orderfl' })).products).sort()).toEqual(
      ['both', 'described', 'oneWord', 'tags', 'titleAndTag'].sort(),
    );
    expect(keysOf((await search({ q: 'orderfl', kind: 'course' })).products)).toEqual(['oneWord']);
    expect(keysOf((await search({ q: 'orderfl', maxPrice: '1000' })).products)).toEqual([
      'tags',
      'described',
    ]);
  });

  it('answers an empty page when the filters exclude known words, with no spelling guess', async () => {
    const body = await search({ q: 'orderflow', kind: 'community' });
    expect(body.products).toEqual([]);
    expect(body.didYouMean).toBeNull();
  });

  it('pages through every match once, across title, tag and description matches', async () => {
    const all = keysOf((await search({ q: 'orderflow', limit: '50' })).products);
    expect(all).toHaveLength(5);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof search>> = await search({
        q: 'orderflow',
        limit: '2',
        ...(cursor ? { cursor } : {}),
      });
      paged.push(...keysOf(page.products));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });
});

describe('search over common words that rarely meet', () => {
  it('still finds the few products holding them all, in every sort', async () => {
    // 250 products each for two words, best sellers first, and two slow sellers holding both: a
    // walk down either word's list gives up long before it reaches them.
    for (const word of ['Yak', 'Emu'])
      await t.database.db.execute(sql`
        with made as (
          insert into products (id, vendor_id, kind, category, slug, title, default_price_id, sort_amount, sales_count)
          select ${word} || '-prd-' || g, ${vendorId}, 'indicator', 'indicators', lower(${word}) || '-' || g,
            ${word} || ' Tool ' || g, ${word} || '-price-' || g, 1000, 100 + g
          from generate_series(1, 250) g returning id, default_price_id)
        insert into prices (id, product_id, amount, currency, scheme) select default_price_id, id, 1000, 'usd', 'one_time' from made`);
    const combo = (await createProduct(t, vendorId, { title: 'Yak Emu Combo', amount: 400 })).id;
    const tagged = (
      await createProduct(t, vendorId, { title: 'Emu Grid', tags: ['yak'], amount: 300 })
    ).id;
    expect((await search({ q: 'yak emu' })).products.map((p) => p.id)).toEqual([combo, tagged]);
    expect((await search({ q: 'emu yak', sort: 'price_asc' })).products.map((p) => p.id)).toEqual([
      tagged,
      combo,
    ]);
    // Every other sort ranks the whole intersection too; equal sales and ratings fall back to the id.
    await t.database.db.execute(
      sql`update products set rating_average = 4, rating_count = 2, created_at = now() - interval '1 day' where id = ${combo}`,
    );
    const byId = [combo, tagged].sort();
    const expected: Record<string, string[]> = {
      newest: [tagged, combo],
      price_desc: [combo, tagged],
      rating: [combo, tagged],
      best_selling: byId,
    };
    for (const [sort, order] of Object.entries(expected))
      expect(
        (await search({ q: 'yak emu', sort })).products.map((p) => p.id),
        sort,
      ).toEqual(order);
  });
});

/** A product for the sort checks: key, title, tags, kind, price, sales, rating. */
type SortRow = [string, string, string[], 'indicator' | 'course', number, number, number];

/**
 * Makes the products (one day apart, newest first, with their sales and ratings), then checks `q` in
 * every sort, with and without a `kind` filter (walked by another statement), against the one order each
 * sort must give: relevance is the exact title, then how many words are in the title, then sales. A
 * product lacking a word in both title and tags must not appear.
 */
async function expectEverySort(q: string, rows: SortRow[]) {
  const made = new Map<string, string>();
  for (const [i, [key, title, tags, kind, amount, sales, rating]] of rows.entries()) {
    const { id } = await createProduct(t, vendorId, { title, tags, kind, amount });
    made.set(id, key);
    await t.database.db.execute(sql`update products set sales_count = ${sales},
      rating_average = ${rating}, rating_count = 3, created_at = now() - ${`${i} days`}::interval where id = ${id}`);
  }
  const words = q.split(' ');
  const titleWords = ([, title]: SortRow) =>
    words.filter((w) => title.toLowerCase().split(' ').includes(w)).length;
  const matches = (r: SortRow) =>
    words.every((w) => r[1].toLowerCase().split(' ').includes(w) || r[2].includes(w));
  const orders: Record<string, (a: SortRow, b: SortRow) => number> = {
    relevance: (a, b) =>
      Number(b[1].toLowerCase() === q) - Number(a[1].toLowerCase() === q) ||
      titleWords(b) - titleWords(a) ||
      b[5] - a[5],
    newest: (a, b) => rows.indexOf(a) - rows.indexOf(b),
    price_asc: (a, b) => a[4] - b[4],
    price_desc: (a, b) => b[4] - a[4],
    rating: (a, b) => b[6] - a[6],
    best_selling: (a, b) => b[5] - a[5],
  };
  for (const [sort, order] of Object.entries(orders)) {
    for (const kind of [undefined, 'course', 'indicator'] as const) {
      const expected = rows
        .filter((r) => matches(r) && (!kind || r[3] === kind))
        .sort(order)
        .map((r) => r[0]);
      const body = await search({ q, sort, ...(kind ? { kind } : {}) });
      expect(
        body.products.map((p) => made.get(p.id)),
        `${sort} ${kind ?? ''}`,
      ).toEqual(expected);
    }
  }
}

describe('one-word queries', () => {
  it('rank and sort alike with and without filters, the exact title first', async () => {
    // In the title or only in the tags, with sales, dates, prices and ratings set apart.
    await expectEverySort('axolotl', [
      ['q1', 'Axolotl', [], 'indicator', 700, 1, 4.1],
      ['q2', 'Axolotl Bands', [], 'course', 300, 50, 3.2],
      ['q3', 'Axolotl Levels', [], 'indicator', 900, 20, 4.9],
      ['q4', 'Range Grid', ['axolotl'], 'course', 100, 90, 2.5],
      ['q5', 'Trend Grid', ['axolotl'], 'indicator', 500, 5, 4.5],
    ]);
  });
});

describe('two-word queries', () => {
  it('rank and sort alike with and without filters, the exact title first', async () => {
    // Both words in the title, one in the title and one in the tags, both in the tags, and one word
    // alone (not a match).
    await expectEverySort('ocelot kiln', [
      ['w1', 'Ocelot Kiln', [], 'indicator', 800, 2, 3.9],
      ['w2', 'Ocelot Kiln Pro', [], 'course', 200, 40, 4.4],
      ['w3', 'Kiln Ocelot Lite', [], 'indicator', 600, 30, 2.1],
      ['w4', 'Ocelot Bands', ['kiln'], 'course', 400, 90, 4.8],
      ['w5', 'Zone Grid', ['ocelot', 'kiln'], 'indicator', 100, 70, 3.3],
      ['w6', 'Ocelot Only', [], 'indicator', 50, 99, 5],
    ]);
  });
});

describe('search index follows the catalogue', () => {
  it('reorders by sales as they happen', async () => {
    const first = (await createProduct(t, vendorId, { title: 'Zebra Bands' })).id;
    const second = (await createProduct(t, vendorId, { title: 'Zebra Levels' })).id;
    const order = async (sort: string) =>
      (await search({ q: 'zebra', sort })).products.map((p) => p.id);
    await t.database.db.execute(sql`update products set sales_count = 5 where id = ${first}`);
    expect(await order('relevance')).toEqual([first, second]);
    await t.database.db.execute(sql`update products set sales_count = 9 where id = ${second}`);
    expect(await order('relevance')).toEqual([second, first]);
    expect(await order('best_selling')).toEqual([second, first]);
  });

  it('follows renames, retirement, return and deletion, spelling suggestions included', async () => {
    const id = (await createProduct(t, vendorId, { title: 'Walrus Momentum' })).id;
    const found = async (q: string) => (await search({ q })).products.map((p) => p.id);
    await t.database.db.execute(
      sql`update products set title = 'Quokka Momentum', summary = 'About Quokka Momentum' where id = ${id}`,
    );
    expect(await found('walrus')).toEqual([]);
    expect(await found('quokka')).toEqual([id]);
    const typo = await search({ q: 'quokak' });
    expect(typo.didYouMean).toBe('quokka');
    expect(typo.products.map((p) => p.id)).toEqual([id]);

    await t.database.db.execute(sql`update products set is_active = false where id = ${id}`);
    expect(await found('quokka')).toEqual([]);
    await t.database.db.execute(sql`update products set is_active = true where id = ${id}`);
    expect(await found('quokka')).toEqual([id]);

    await t.database.db.execute(sql`delete from prices where product_id = ${id}`);
    await t.database.db.execute(sql`delete from products where id = ${id}`);
    expect(await found('quokka')).toEqual([]);
    expect((await search({ q: 'quokak' })).didYouMean).toBeNull();
  });

  it('finds words added to a description', async () => {
    await t.database.db.execute(
      sql`update products set description = 'Now covers platypus setups.' where id = ${ids.oneWord}`,
    );
    expect(keysOf((await search({ q: 'platypus' })).products)).toEqual(['oneWord']);
    await t.database.db.execute(
      sql`update products set description = '' where id = ${ids.oneWord}`,
    );
    expect((await search({ q: 'platypus' })).products).toEqual([]);
  });

  it('takes concurrent edits of products that share words', async () => {
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createProduct(t, vendorId, { title: `Gecko Ribbon ${i}`, tags: ['gecko', 'ribbon'] }),
      ),
    );
    // Each rename removes and adds the same lexemes; run them at once on separate connections.
    await Promise.all(
      made.map((p, i) =>
        t.database.db.execute(
          sql`update products set title = ${`Gecko Ribbon Pro ${i}`}, tags = array['ribbon', 'gecko', 'pro'] where id = ${p.id}`,
        ),
      ),
    );
    const hits = (await search({ q: 'gecko ribbon', limit: '50' })).products.map((p) => p.id);
    expect(hits.sort()).toEqual(made.map((p) => p.id).sort());
  });
});

describe('words that name a product type, platform or asset class (ADR 023)', () => {
  const titlesOf = async (q: string, extra: Record<string, string> = {}) =>
    (await search({ q, ...extra })).products.map((p) => p.title);
  let made = false;
  const makeYetis = async () => {
    if (made) return;
    made = true;
    await createProduct(t, vendorId, {
      title: 'Yeti Sweep',
      kind: 'scanner',
      platforms: ['mt5'],
      assetClasses: ['forex'],
    });
    await createProduct(t, vendorId, {
      title: 'Yeti Ribbon',
      kind: 'indicator',
      platforms: ['tradingview'],
      assetClasses: ['crypto'],
    });
    await createProduct(t, vendorId, {
      title: 'Yeti Lessons',
      kind: 'course',
      platforms: ['thinkorswim'],
      assetClasses: ['options'],
    });
  };

  it('match the fields by name, plural, abbreviation or phrase', async () => {
    await makeYetis();
    for (const q of [
      'yeti scanner',
      'yeti scanners',
      'yeti screener',
      'yeti mt5',
      'yeti metatrader 5',
    ])
      expect(await titlesOf(q), q).toEqual(['Yeti Sweep']);
    for (const q of ['yeti fx', 'yeti forex']) expect(await titlesOf(q), q).toEqual(['Yeti Sweep']);
    for (const q of ['yeti tv', 'yeti tradingview', 'yeti indicators', 'yeti btc', 'yeti crypto'])
      expect(await titlesOf(q), q).toEqual(['Yeti Ribbon']);
    for (const q of ['yeti courses', 'yeti tos', 'yeti think or swim', 'yeti options'])
      expect(await titlesOf(q), q).toEqual(['Yeti Lessons']);
    // A platform alone lists its products, and only them.
    expect(await titlesOf('thinkorswim')).toEqual(['Yeti Lessons']);
  });

  it('correct a typo in every word, fields included', async () => {
    await makeYetis();
    const body = await search({ q: 'yeit scaner' });
    expect(body.didYouMean).toBe('yeti scanner');
    expect(body.products.map((p) => p.title)).toEqual(['Yeti Sweep']);
    const platform = await search({ q: 'yeti tradingveiw' });
    expect(platform.didYouMean).toBe('yeti tradingview');
    expect(platform.products.map((p) => p.title)).toEqual(['Yeti Ribbon']);
  });

  it('rank title matches first, then tags, then fields, in one, two and three terms', async () => {
    const rows: Array<[string, 'indicator' | 'scanner' | 'app', string[], number, number]> = [
      ['Lynx Scanner', 'indicator', [], 400, 1],
      ['Lynx Scanner Pro', 'app', [], 300, 10],
      ['Lynx Grid', 'indicator', ['scanner'], 200, 50],
      ['Lynx Bands', 'scanner', [], 100, 90],
      ['Lynx Levels', 'indicator', [], 50, 99],
    ];
    for (const [title, kind, tags, amount, sales] of rows) {
      const { id } = await createProduct(t, vendorId, { title, kind, tags, amount });
      await t.database.db.execute(sql`update products set sales_count = ${sales} where id = ${id}`);
    }
    expect(await titlesOf('lynx scanner')).toEqual([
      'Lynx Scanner',
      'Lynx Scanner Pro',
      'Lynx Grid',
      'Lynx Bands',
    ]);
    // Three terms ('tv' only a field here): no exact title, the same tiers.
    expect(await titlesOf('lynx scanner tv')).toEqual([
      'Lynx Scanner Pro',
      'Lynx Scanner',
      'Lynx Grid',
      'Lynx Bands',
    ]);
    expect(await titlesOf('lynx scanner', { sort: 'price_asc' })).toEqual([
      'Lynx Bands',
      'Lynx Grid',
      'Lynx Scanner Pro',
      'Lynx Scanner',
    ]);
    expect(await titlesOf('lynx scanner', { kind: 'scanner' })).toEqual(['Lynx Bands']);
    // A word that only a field holds, beside one a title holds: the title word's order.
    expect(await titlesOf('lynx tv')).toEqual([
      'Lynx Levels',
      'Lynx Bands',
      'Lynx Grid',
      'Lynx Scanner Pro',
      'Lynx Scanner',
    ]);
  });

  it('follow changes to the fields', async () => {
    const { id } = await createProduct(t, vendorId, {
      title: 'Marmot Gauge',
      platforms: ['ninjatrader'],
      assetClasses: ['futures'],
    });
    expect(await titlesOf('marmot nt8')).toEqual(['Marmot Gauge']);
    await t.database.db.execute(
      sql`update products set platforms = array['ctrader'], asset_classes = array['indices'], kind = 'app', category = 'apps' where id = ${id}`,
    );
    expect(await titlesOf('marmot nt8')).toEqual([]);
    expect(await titlesOf('marmot futures')).toEqual([]);
    expect(await titlesOf('marmot ctrader')).toEqual(['Marmot Gauge']);
    expect(await titlesOf('marmot indices')).toEqual(['Marmot Gauge']);
    expect(await titlesOf('marmot apps')).toEqual(['Marmot Gauge']);
  });

  it('ask for bundles with a bundle word, matched by their products too', async () => {
    await makeYetis();
    const sweep = (await search({ q: 'yeti sweep' })).products[0]!;
    await createBundle(t, vendorId, [sweep.id], 4000, 'Snow Kit');
    const body = await search({ q: 'yeti bundle' });
    expect(body.products).toEqual([]);
    expect(body.bundles.map((b) => b.title)).toEqual(['Snow Kit']);
    expect((await search({ q: 'mt5 bundles' })).bundles.map((b) => b.title)).toEqual(['Snow Kit']);
    expect((await search({ q: 'crypto bundles' })).bundles).toEqual([]);
  });
});

describe('a search that finds nothing', () => {
  it('offers the query without a word, and in other categories without the filters', async () => {
    for (const [title, kind] of [
      ['Puffin Sweep', 'scanner'],
      ['Puffin Quiver', 'indicator'],
      ['Puffin Levels', 'indicator'],
    ] as const)
      await createProduct(t, vendorId, { title, kind });
    const noDiscord = await search({ q: 'puffin discord' });
    expect(noDiscord.products).toEqual([]);
    expect(noDiscord.suggestions).toEqual([{ q: 'puffin', count: 3 }]);

    const noAlerts = await search({ q: 'puffin', category: 'alerts' });
    expect(noAlerts.products).toEqual([]);
    expect(noAlerts.suggestions).toEqual([
      { q: 'puffin', category: 'indicators', count: 2 },
      { q: 'puffin', category: 'scanners', count: 1 },
    ]);
    // A filter other than the category: the same words, in each category, without it.
    const tooCheap = await search({ q: 'puffin quiver', maxPrice: '1' });
    // Most matches first; on a tie, every word kept before a word dropped.
    expect(tooCheap.suggestions).toEqual([
      { q: 'puffin', count: 3 },
      { q: 'puffin quiver', category: 'indicators', count: 1 },
      { q: 'quiver', count: 1 },
    ]);
    expect((await search({ q: 'puffin' })).suggestions).toEqual([]);
    expect((await search({ q: 'qwzxv' })).suggestions).toEqual([]);
  });
});

describe('searching from one address (issue 26)', () => {
  it('past the per-address limit answers 429 with Retry-After; other addresses still search', async () => {
    const limit = t.config.SEARCH_LIMIT_PER_IP_MINUTE;
    // An IPv6 subscriber's whole /64 is one address (ADR 021): rotating the rest changes nothing.
    const from = (i: number) => `2001:db8:26:1::${(i + 1).toString(16)}`;
    const answers = [];
    for (let i = 0; i <= limit; i++)
      answers.push(await t.call(catalogRoutes.search, { query: { q: 'heat' }, ip: from(i) }));
    expect(answers.slice(0, limit).map((a) => a.statusCode)).toEqual(Array(limit).fill(200));
    const over = answers[limit]!;
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Suggestions as one types are the same route: refused too.
    const typing = await t.call(catalogRoutes.search, {
      query: { q: 'he', limit: '6' },
      ip: from(0),
    });
    expect(typing.statusCode).toBe(429);
    expect((await search({ q: 'heat' })).products.length).toBeGreaterThan(0);
  });
});
