// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VendorCourse } from '@tradeshelf/contract';
import { renderWithApp, type SeenRequest } from '../../../test/render.tsx';
import { CourseBuilder } from './builder.tsx';
import { lesson } from './test-fixtures.ts';

afterEach(cleanup);

const start: VendorCourse = {
  productId: 'prd_1',
  courseId: 'crs_1',
  title: 'Chart Reading',
  slug: 'chart-reading',
  isActive: true,
  deleted: [],
  modules: [
    {
      id: 'm1',
      title: 'Basics',
      position: 0,
      lessons: [lesson('a', 'm1', 0), { ...lesson('b', 'm1', 1), learners: 2 }],
    },
  ],
};

function setup() {
  let course = start;
  const app = renderWithApp(<CourseBuilder productId="prd_1" />, {
    signedIn: true,
    url: '/vendor/courses/prd_1',
    answer: (req: SeenRequest) => {
      if (req.method === 'GET') return { status: 200, body: { course } };
      if (req.method === 'PUT' && req.path.endsWith('/order')) {
        const order = req.body as { modules: Array<{ id: string; lessons: string[] }> };
        const all = course.modules.flatMap((m) => m.lessons);
        course = {
          ...course,
          modules: order.modules.map((m, i) => ({
            ...course.modules.find((x) => x.id === m.id)!,
            position: i,
            lessons: m.lessons.map((id, j) => ({ ...all.find((l) => l.id === id)!, position: j })),
          })),
        };
        return { status: 200, body: { course } };
      }
      if (req.method === 'DELETE') {
        const id = req.path.split('/').pop()!;
        const gone = course.modules[0]!.lessons.find((l) => l.id === id)!;
        course = {
          ...course,
          modules: [
            {
              ...course.modules[0]!,
              lessons: course.modules[0]!.lessons.filter((l) => l.id !== id),
            },
          ],
          deleted: [
            { id, title: gone.title, moduleTitle: 'Basics', deletedAt: '2026-11-24T10:00:00.000Z' },
          ],
        };
        return { status: 200, body: { course } };
      }
      return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
    },
  });
  return app;
}

const titles = () =>
  screen.getAllByRole('listitem').flatMap((li) => {
    const t = li.textContent?.match(/Lesson [ab]/);
    return t && li.querySelector('ol') === null ? [t[0]] : [];
  });

describe('the course builder', () => {
  it('reorders from the keyboard and saves the whole order', async () => {
    const user = userEvent.setup();
    const app = setup();
    const down = await screen.findByRole('button', { name: 'Move lesson Lesson a down' });
    down.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(titles()).toEqual(['Lesson b', 'Lesson a']));
    const put = app.requests.find((r) => r.method === 'PUT')!;
    expect(put.path).toBe('/api/v1/vendor/courses/prd_1/order');
    expect(put.body).toEqual({ modules: [{ id: 'm1', lessons: ['b', 'a'] }] });
    // The first lesson cannot move up.
    expect(
      (screen.getByRole('button', { name: 'Move lesson Lesson b up' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
  });

  it('asks before deleting, says progress is kept, and offers the lesson back', async () => {
    const user = userEvent.setup();
    const app = setup();
    await user.click(await screen.findByRole('button', { name: 'Delete lesson Lesson b' }));
    expect(screen.getByText(/2 buyers have progress on it/)).toBeTruthy();
    expect(app.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.keyboard('{Escape}');
    expect(screen.queryByText(/2 buyers have progress on it/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete lesson Lesson b' }));
    await user.click(screen.getByRole('button', { name: 'Delete lesson' }));
    expect(await screen.findByRole('button', { name: 'Restore Lesson b' })).toBeTruthy();
    expect(app.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/api/v1/vendor/courses/prd_1/lessons/b',
    ]);
  });

  it('links to the buyer’s view of the course', async () => {
    setup();
    const link = await screen.findByRole('link', { name: 'Preview as buyer' });
    expect(link.getAttribute('href')).toBe('/courses/prd_1');
  });
});
