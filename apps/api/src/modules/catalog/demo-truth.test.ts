import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import {
  catalogRoutes,
  coursesRoutes,
  deliverableExtensions,
  deliverablePlatformLabels,
  deliverableVersionPattern,
  linkPlatforms,
  RELEASE_NOTES_MAX,
  SETUP_GUIDE_MAX,
  type Course,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.ts';
import { seedAll } from '../../db/seed.ts';
import { demoDeliveries } from '../deliverables/demo-content.ts';
import { deliverableRules } from '../deliverables/file-rules.ts';
import { bufferRanges, readZipDirectory } from '../deliverables/zip.ts';
import {
  DEMO_FILE_MAX_BYTES,
  DEMO_FILES_DIR,
  renderDemoFiles,
} from '../deliverables/demo-render.ts';
import { findAccountByEmail } from '../users/index.ts';
import { mp4Seconds, storeDemoCourseMedia } from '../courses/seed.ts';
import { demoCourseCounts, demoCourseOutline } from './demo-courses.ts';
import { demoProducts, demoVendors } from './demo-data.ts';
import { productSvgs, vendorCardSvg } from './demo-images.ts';
import { demoPicture } from './demo-pictures.ts';
import { userToken } from '../../../test/factories/users.ts';

// Issue 27: the demo data is true to its own pages. A course holds the modules and lessons its
// description and cover count, its lessons last as long as their videos, what a product promises
// follows its billing, pictures fit what a product does, and a storefront's counts are what a
// visitor sees. Issue 29: every product that promises a download has one per platform it lists.

const t = useTestApp();
let token: string;
beforeAll(async () => {
  await seedAll(t.database.db);
  await storeDemoCourseMedia(t.deps.storage);
  const buyer = (await findAccountByEmail(t.database.db, 'buyer@demo.tradeshelf.test'))!;
  token = await userToken(t, buyer);
});

type SeededProduct = {
  id: string;
  title: string;
  summary: string;
  description: string;
  kind: string;
  schemes: string[];
};

const seeded = async () =>
  (
    await t.database.db.execute<SeededProduct>(sql`
      select p.id, p.title, p.summary, p.description, p.kind,
        array(select distinct scheme from prices where product_id = p.id order by scheme) as schemes
      from products p order by p.title`)
  ).rows;

/** Every "N modules" / "N lessons" a text states. */
const stated = (text: string, noun: 'module' | 'lesson') =>
  [...text.matchAll(new RegExp(`(\\d+) ${noun}s?\\b`, 'g'))].map((m) => Number(m[1]));

describe('demo courses', () => {
  it('hold the modules and lessons their pages count, each video as long as its media', async () => {
    const courses = (await seeded()).filter((p) => p.kind === 'course');
    expect(courses.length).toBeGreaterThan(5);
    const lessonCounts = new Set<number>();
    for (const product of courses) {
      const res = await t.call(coursesRoutes.courseDetails, {
        token,
        params: { id: product.id },
      });
      expect(res.statusCode, res.body).toBe(200);
      const course = res.json().course as Course;
      const lessons = course.modules.flatMap((m) => m.lessons);
      lessonCounts.add(lessons.length);
      // What the product page and the course page say is what the course holds.
      const text = `${product.summary}\n${product.description}`;
      expect(stated(text, 'module'), product.title).toContain(course.modules.length);
      expect(new Set(stated(text, 'module')), product.title).toEqual(
        new Set([course.modules.length]),
      );
      const perModule = course.modules.map((m) => m.lessons.length);
      for (const n of stated(text, 'lesson'))
        expect([lessons.length, ...perModule], product.title).toContain(n);
      expect(course.lessonCount).toBe(lessons.length);
      expect(demoCourseCounts(demoCourseOutline(product.title))).toEqual({
        modules: course.modules.length,
        lessons: lessons.length,
      });
      // The cover counts the same outline, and claims no hours of video the course lacks.
      const cover = productSvgs({
        title: product.title,
        kind: 'course',
        platforms: [],
        assets: [],
        tags: [],
        vendorName: 'x',
        community: null,
      })[0]!;
      expect(stated(cover, 'module'), product.title).toEqual([course.modules.length]);
      expect(stated(cover, 'lesson')).toEqual([lessons.length]);
      expect(cover).not.toMatch(/h of video|\d+ min\b/);
    }
    // Courses are not all one outline any more.
    expect(lessonCounts.size).toBeGreaterThan(1);
  });

  it('gives every video lesson the length of the file it plays', async () => {
    const videos = (
      await t.database.db.execute<{ video_key: string; duration_seconds: number | null }>(
        sql`select video_key, duration_seconds from course_lessons where video_key is not null`,
      )
    ).rows;
    expect(videos.length).toBeGreaterThan(10);
    const lengths = new Map<string, number | null>();
    for (const key of new Set(videos.map((v) => v.video_key))) {
      const { url } = await t.deps.storage.signedUrl(key, 60);
      const played = await t.app.inject({ url });
      expect(played.statusCode).toBe(200);
      lengths.set(key, mp4Seconds(played.rawPayload));
    }
    // The demo clips are 6.024 s and 5.024 s long (ffprobe).
    expect([...lengths.values()].sort()).toEqual([5, 6]);
    for (const v of videos) expect(v.duration_seconds).toBe(lengths.get(v.video_key));
  });
});

describe('demo product copy', () => {
  it('promises what the billing gives and reads as written for traders', async () => {
    const products = await seeded();
    expect(products.length).toBeGreaterThan(50);
    for (const p of products) {
      const text = p.description;
      expect(text, p.title).not.toMatch(/Lifetime updates|while your plan is active/i);
      expect(text, p.title).not.toMatch(/without building it themselves/);
      expect(text, p.title).not.toMatch(/\b1 (files|products|lessons|modules|reviews)\b/);
      if (!p.schemes.includes('recurring'))
        expect(text, p.title).not.toMatch(/subscription|renew|while .* (active|runs)/i);
      if (!p.schemes.includes('one_time'))
        expect(text, p.title).not.toMatch(/pay once|one payment/i);
      // A download is promised exactly where the product delivers one (issue 29).
      const delivery = demoDeliveries.find((d) => d.title === p.title);
      if (delivery) expect(text, p.title).toMatch(/set-up guide/);
      else expect(text, p.title).not.toMatch(/set-up guide|the download|files? to download/);
      expect(text, p.title).not.toMatch(/video walkthrough|Setup guide/);
    }
  });

  it('draws each product for what it does: no back-test on a sizing calculator or a plan', () => {
    for (const v of demoVendors)
      for (const p of demoProducts[v.vendorUrl] ?? []) {
        const svgs = productSvgs(demoPicture(v, p)).join('');
        const backTest = /Equity curve|Back-tests/.test(svgs);
        if (p.tags.includes('position sizing') || p.tags.includes('plan'))
          expect(backTest, p.title).toBe(false);
        if (p.kind === 'app' && p.tags.includes('backtesting'))
          expect(backTest, p.title).toBe(true);
      }
  });
});

describe('demo storefronts', () => {
  it('count what a visitor sees, and the banner bakes in no name, logo or count', async () => {
    for (const v of demoVendors) {
      const profile = await t.call(catalogRoutes.vendorProfile, {
        query: { vendorUrl: v.vendorUrl },
      });
      const list = await t.call(catalogRoutes.sellerProductList, {
        query: { vendorUrl: v.vendorUrl, isActive: 'true' },
      });
      expect(profile.json().vendor.productCount, v.vendorUrl).toBe(list.json().products.length);
      const banner = vendorCardSvg({ displayName: v.displayName });
      expect(banner, v.vendorUrl).not.toMatch(/<text|<image|products? on/);
    }
  });
});

/** The platforms a demo product is sold for that deliver by download (issue 29). */
const downloadPlatforms = ['mt4', 'mt5', 'ninjatrader', 'ctrader', 'tradestation', 'thinkorswim'];
const demoTemplates = demoVendors.flatMap((v) =>
  (demoProducts[v.vendorUrl] ?? []).map((p) => ({ ...p, vendorUrl: v.vendorUrl })),
);

/** A ZIP's entries by name, read from its central directory (stored or deflated). */
function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entries = new Map<string, Buffer>();
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + packed);
    entries.set(name, method === 8 ? inflateRawSync(data) : data);
    at += 46 + skip;
  }
  return entries;
}

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? filesUnder(path.join(dir, e.name), `${prefix}${e.name}/`)
      : [`${prefix}${e.name}`],
  );
}

describe('demo deliverables', () => {
  it('deliver every demo product that promises a download, on each platform it lists', () => {
    const byTitle = new Map(demoDeliveries.map((d) => [d.title, d]));
    expect(byTitle.size).toBe(demoDeliveries.length);
    let covered = 0;
    for (const p of demoTemplates) {
      // Discord communities and courses deliver their own way; the plans are the platform's.
      if (p.kind === 'community' || p.kind === 'course' || p.vendorUrl === 'tradeshelf') continue;
      const wanted = p.platforms.filter((x) => downloadPlatforms.includes(x));
      if (!wanted.length && p.kind !== 'app') continue;
      const delivery = byTitle.get(p.title);
      expect(delivery, p.title).toBeDefined();
      const has = new Set(delivery!.versions.map((v) => v.platform));
      for (const platform of wanted) expect(has, `${p.title} on ${platform}`).toContain(platform);
      // An app listed only as "other" is a desktop download.
      if (!wanted.length)
        expect(
          [...has].every((x) => x === 'windows' || x === 'macos'),
          p.title,
        ).toBe(true);
      covered++;
    }
    expect(covered).toBe(demoDeliveries.length);
    // Nothing delivered for a platform the product does not list.
    for (const d of demoDeliveries) {
      const p = demoTemplates.find((x) => x.title === d.title)!;
      for (const v of d.versions)
        if (v.platform !== 'windows' && v.platform !== 'macos')
          expect(p.platforms, `${d.title} ${v.platform}`).toContain(v.platform);
    }
  });

  it('are versions a buyer can trust: numbered, noted, newest recent, with a guide', () => {
    for (const d of demoDeliveries) {
      expect(d.guide.length, d.title).toBeLessThanOrEqual(SETUP_GUIDE_MAX);
      expect(d.guide, d.title).toMatch(/^# Setting up /);
      const platforms = new Set(d.versions.map((v) => v.platform));
      for (const platform of platforms) {
        const mine = d.versions.filter((v) => v.platform === platform);
        expect(mine.length, `${d.title} ${platform}`).toBeGreaterThanOrEqual(1);
        expect(mine.length, `${d.title} ${platform}`).toBeLessThanOrEqual(3);
        expect(new Set(mine.map((v) => v.version)).size).toBe(mine.length);
        // Oldest first, each released after the one before it.
        for (let i = 1; i < mine.length; i++)
          expect(mine[i]!.releasedDaysAgo, d.title).toBeLessThan(mine[i - 1]!.releasedDaysAgo);
        for (const v of mine) {
          expect(v.version, d.title).toMatch(deliverableVersionPattern);
          expect(v.notes.trim().length, `${d.title} ${v.version}`).toBeGreaterThan(10);
          expect(v.notes.length).toBeLessThanOrEqual(RELEASE_NOTES_MAX);
        }
        // The guide has a section for every platform the product delivers to.
        expect(d.guide, `${d.title} ${platform}`).toContain(
          `## ${deliverablePlatformLabels[platform]}`,
        );
      }
      // Kept up to date, but for the product the seed retires (its last release is old news).
      if (d.title !== 'Volume Weighted MACD')
        expect(Math.min(...d.versions.map((v) => v.releasedDaysAgo)), d.title).toBeLessThanOrEqual(
          95,
        );
    }
  });

  it('reference files that exist, are small, and have a type their platform takes', () => {
    let total = 0;
    for (const d of demoDeliveries)
      for (const v of d.versions) {
        const what = `${d.title} ${v.platform} ${v.version}`;
        if (linkPlatforms.includes(v.platform)) {
          expect(v.file, what).toBeUndefined();
          expect(v.link, what).toMatch(/^https:\/\/tos\.mx\/![A-Za-z0-9]+$/);
          continue;
        }
        expect(v.link, what).toBeUndefined();
        const file = path.join(DEMO_FILES_DIR, v.file!);
        const size = statSync(file).size;
        total += size;
        expect(size, what).toBeGreaterThan(0);
        expect(size, what).toBeLessThanOrEqual(DEMO_FILE_MAX_BYTES);
        expect(deliverableExtensions[v.platform], what).toContain(path.extname(file));
        const bytes = readFileSync(file);
        if (path.extname(file) !== '.zip') {
          // Source and presets: text that names its own version.
          expect(bytes.toString('utf8'), what).toContain(v.version);
          continue;
        }
        const entries = unzip(bytes);
        expect(entries.size, what).toBeGreaterThan(0);
        for (const [name, data] of entries) {
          expect(name, what).not.toMatch(/(^|\/)\.\.(\/|$)|^\/|\\|\0/);
          expect(data.length, `${what} ${name}`).toBeLessThanOrEqual(DEMO_FILE_MAX_BYTES);
        }
        const names = [...entries.keys()];
        if (v.platform === 'ninjatrader') {
          expect(names, what).toContain('Info.xml');
          expect(
            names.some((n) => n.endsWith('.cs')),
            what,
          ).toBe(true);
        }
        if (v.platform === 'ctrader')
          expect(
            names.some((n) => n.endsWith('.cs')),
            what,
          ).toBe(true);
        if (v.platform === 'mt4' || v.platform === 'mt5')
          expect(
            names.some((n) => n.endsWith(`.mq${v.platform.slice(2)}`)),
            what,
          ).toBe(true);
      }
    expect(total).toBeLessThan(1024 * 1024);
  });

  it('pass the checks a vendor upload of them would: type by content, text to the end, safe archives', async () => {
    for (const d of demoDeliveries)
      for (const v of d.versions) {
        if (!v.file) continue;
        const bytes = readFileSync(path.join(DEMO_FILES_DIR, v.file));
        const name = path.basename(v.file);
        const rules = deliverableRules(v.platform);
        const type = rules.sniff(bytes.subarray(0, 4096), name, bytes.length <= 4096);
        expect(type, v.file).not.toBeNull();
        const follow = rules.follow?.(type!);
        if (follow) expect(follow.push(bytes) && follow.end(), v.file).toBe(true);
        if (type !== 'application/zip') continue;
        const dir = await readZipDirectory(bufferRanges(bytes), bytes.length);
        expect(dir, v.file).toMatchObject({ ok: true });
      }
  });

  it('are the files their sources build, byte for byte, and nothing else (npm run demo:files)', () => {
    const built = renderDemoFiles();
    expect(new Set(filesUnder(DEMO_FILES_DIR))).toEqual(new Set(built.keys()));
    for (const [rel, bytes] of built)
      expect(readFileSync(path.join(DEMO_FILES_DIR, rel)).equals(bytes), rel).toBe(true);
  });
});
