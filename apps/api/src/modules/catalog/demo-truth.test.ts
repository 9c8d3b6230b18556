import { catalogRoutes, coursesRoutes, type Course } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { seedAll } from '../../db/seed.ts';
import { findAccountByEmail } from '../users/index.ts';
import { mp4Seconds, storeDemoCourseMedia } from '../courses/seed.ts';
import { demoCourseCounts, demoCourseOutline } from './demo-courses.ts';
import { demoProducts, demoVendors } from './demo-data.ts';
import { productSvgs, vendorCardSvg } from './demo-images.ts';

// Issue 27: the demo data is true to its own pages. A course holds the modules and lessons its
// description and cover count, its lessons last as long as their videos, what a product promises
// follows its billing, pictures fit what a product does, and a storefront's counts are what a
// visitor sees.

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  await seedAll(t.database.db);
  await storeDemoCourseMedia(t.deps.storage);
  const buyer = (await findAccountByEmail(t.database.db, 'buyer@demo.tradeshelf.test'))!;
  token = await t.deps.tokens.sign({ sub: buyer.id, email: buyer.email, roles: ['buyer'] });
});
afterAll(() => t?.close());

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
    }
  });

  it('draws each product for what it does: no back-test on a sizing calculator or a plan', () => {
    for (const v of demoVendors)
      for (const p of demoProducts[v.vendorUrl] ?? []) {
        const svgs = productSvgs({
          title: p.title,
          kind: p.kind,
          platforms: p.platforms,
          assets: p.assets,
          tags: p.tags,
          vendorName: v.displayName,
          community: v.discord,
        }).join('');
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
