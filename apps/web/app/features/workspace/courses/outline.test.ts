import type { VendorCourse } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import {
  dripProblem,
  fileProblem,
  formatBytes,
  moveLesson,
  moveModule,
  orderOf,
  outlineCounts,
  titleProblem,
} from './outline.ts';
import { lesson } from './test-fixtures.ts';

const course = (outline: Record<string, string[]>): VendorCourse => ({
  productId: 'prd_1',
  courseId: 'crs_1',
  title: 'Course',
  slug: 'course',
  isActive: true,
  deleted: [],
  modules: Object.entries(outline).map(([id, lessons], i) => ({
    id,
    title: `Module ${id}`,
    position: i,
    lessons: lessons.map((l, j) => lesson(l, id, j)),
  })),
});

const shape = (c: VendorCourse | null) =>
  c && Object.fromEntries(c.modules.map((m) => [m.id, m.lessons.map((l) => l.id)]));

describe('moving modules', () => {
  it('swaps with the neighbour and renumbers; null at either end', () => {
    const c = course({ a: ['1'], b: ['2'], c: [] });
    const moved = moveModule(c, 'b', -1)!;
    expect(moved.modules.map((m) => [m.id, m.position])).toEqual([
      ['b', 0],
      ['a', 1],
      ['c', 2],
    ]);
    expect(moveModule(c, 'a', -1)).toBeNull();
    expect(moveModule(c, 'c', 1)).toBeNull();
    expect(moveModule(c, 'zz', 1)).toBeNull();
    // The original is left as it was (the screen keeps it until the server answers).
    expect(shape(c)).toEqual({ a: ['1'], b: ['2'], c: [] });
  });
});

describe('moving lessons', () => {
  it('moves within its module', () => {
    const c = course({ a: ['1', '2', '3'] });
    expect(shape(moveLesson(c, '3', -1))).toEqual({ a: ['1', '3', '2'] });
    expect(moveLesson(c, '2', 1)!.modules[0]!.lessons.map((l) => l.position)).toEqual([0, 1, 2]);
  });

  it('crosses into the neighbouring module at its edges, skipping none', () => {
    const c = course({ a: ['1', '2'], b: [], c: ['3'] });
    const down = moveLesson(c, '2', 1)!;
    expect(shape(down)).toEqual({ a: ['1'], b: ['2'], c: ['3'] });
    expect(down.modules[1]!.lessons[0]!.moduleId).toBe('b');
    expect(shape(moveLesson(c, '3', -1))).toEqual({ a: ['1', '2'], b: ['3'], c: [] });
    expect(shape(moveLesson(course({ a: ['1'], b: ['2', '4'] }), '1', 1))).toEqual({
      a: [],
      b: ['1', '2', '4'],
    });
  });

  it('answers null where there is nowhere to go', () => {
    const c = course({ a: ['1'], b: ['2'] });
    expect(moveLesson(c, '1', -1)).toBeNull();
    expect(moveLesson(c, '2', 1)).toBeNull();
    expect(moveLesson(c, 'nope', 1)).toBeNull();
  });

  it('orderOf gives the API the whole order', () => {
    const moved = moveLesson(course({ a: ['1', '2'], b: ['3'] }), '2', 1)!;
    expect(orderOf(moved)).toEqual({
      modules: [
        { id: 'a', lessons: ['1'] },
        { id: 'b', lessons: ['2', '3'] },
      ],
    });
    expect(outlineCounts(moved)).toMatchObject({ modules: 2, lessons: 3, videos: 0 });
  });
});

describe('checks before sending', () => {
  it('files: names without paths, the right kinds, sizes within the limits', () => {
    expect(fileProblem({ name: 'intro.mp4', size: 10 }, 'video')).toBeNull();
    expect(fileProblem({ name: 'intro.webm', size: 10 }, 'video')).toBeNull();
    expect(fileProblem({ name: 'intro.mov', size: 10 }, 'video')).toMatch(/MP4 or WebM/);
    expect(fileProblem({ name: 'intro.mp4', size: 201 * 1024 * 1024 }, 'video')).toMatch(/200 MB/);
    expect(fileProblem({ name: 'sheet.pdf', size: 0 }, 'attachment')).toMatch(/Choose a file/);
    expect(fileProblem({ name: '../sheet.pdf', size: 5 }, 'attachment')).toMatch(/plain file name/);
    expect(fileProblem({ name: 'a\\sheet.pdf', size: 5 }, 'attachment')).toMatch(/plain file name/);
    expect(fileProblem({ name: 'tool.exe', size: 5 }, 'attachment')).toMatch(/PDF, ZIP/);
    expect(fileProblem({ name: 'data.csv', size: 26 * 1024 * 1024 }, 'attachment')).toMatch(
      /25 MB/,
    );
  });

  it('titles and drip days, with the contract’s messages', () => {
    expect(titleProblem('  ')).toBe('Give it a title.');
    expect(titleProblem('x'.repeat(121))).toMatch(/120 characters/);
    expect(titleProblem(' Week 1 ')).toBeNull();
    expect(dripProblem('7')).toBeNull();
    expect(dripProblem('-1')).toMatch(/whole number/);
    expect(dripProblem('1.5')).toMatch(/whole number/);
    expect(dripProblem('99999')).toMatch(/whole number/);
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
