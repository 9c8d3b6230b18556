// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Course } from '@tradeshelf/contract';
import { CoursePage } from '../../routes/course.tsx';
import { sessionEnded } from '../auth/slice.ts';
import { renderWithApp, type SeenRequest } from '../../test/render.tsx';
import { formatDate } from '../../lib/format.ts';
import { enrolledCourse, OPENS_AT, progress } from './test-fixtures.ts';

const videoAnswer = {
  url: '/files/video-2.mp4?sig=x',
  expiresAt: '2026-11-24T10:00:00.000Z',
  contentType: 'video/mp4',
  lessonId: 'les_2',
  captions: [
    {
      language: 'en',
      label: 'English',
      url: '/files/en.vtt?sig=y',
      expiresAt: '2026-11-24T10:00:00.000Z',
      contentType: 'text/vtt',
    },
  ],
};

function answer(course: Course) {
  return (req: SeenRequest) => {
    if (req.path === '/api/v1/courses/prd_1' || req.path === '/api/v1/courses/crs_1')
      return { status: 200, body: { course } };
    if (req.path === '/api/v1/videos/url') return { status: 200, body: videoAnswer };
    if (req.method === 'PUT' && req.path.endsWith('/progress')) {
      const body = req.body as { positionSeconds: number; completed?: boolean };
      return {
        status: 200,
        body: {
          lessonId: 'les_2',
          progress: progress(body.positionSeconds, body.completed ?? false),
          course: { completed: 2, total: 3, percent: 67 },
        },
      };
    }
    return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
  };
}

function renderCourse(url: string, course: Course, signedIn = true) {
  return renderWithApp(
    <Routes>
      <Route path="/courses/:id" element={<CoursePage />} />
      <Route path="/courses/:id/lessons/:lessonId" element={<CoursePage />} />
    </Routes>,
    { signedIn, url, answer: answer(course) },
  );
}

afterEach(cleanup);

describe('course page', () => {
  // Issue 27: a 6-second clip was "1 min"; the page counts modules and lessons from the course.
  it('shows each lesson with its media length and counts what the course holds', async () => {
    const course = enrolledCourse();
    course.modules[0]!.lessons[1]!.durationSeconds = 6;
    renderCourse('/courses/prd_1', course);
    const links = await screen.findAllByTestId('lesson-link');
    expect(links[1]!.textContent).toContain('Video · 0:06');
    expect(links[0]!.textContent).toContain('Video · 2:00');
    expect(document.body.textContent).not.toContain('1 min');
    expect(screen.getByText(/Alpha Edge · 2 modules · 3 lessons/)).toBeTruthy();
  });

  it('opens the lesson to resume and seeks to its saved position once the video loads', async () => {
    const app = renderCourse('/courses/prd_1', enrolledCourse());
    expect(await screen.findByRole('heading', { level: 2, name: 'Reading momentum' })).toBeTruthy();
    const video = await screen.findByTestId<HTMLVideoElement>('lesson-video');
    const track = video.querySelector('track')!;
    expect(track.getAttribute('kind')).toBe('captions');
    expect(track.getAttribute('srclang')).toBe('en');
    expect(track.getAttribute('label')).toBe('English');
    expect(track.hasAttribute('default')).toBe(true);
    expect(video.querySelector('source')!.getAttribute('src')).toBe(videoAnswer.url);
    expect(app.requests.find((r) => r.path === '/api/v1/videos/url')!.query.get('id')).toBe(
      'vid_2',
    );
    fireEvent.loadedMetadata(video);
    expect(video.currentTime).toBe(42);

    // Overall progress is an accessible progress bar; the current lesson is marked in the list.
    const bar = screen.getByRole('progressbar', { name: 'Course progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('33');
    expect(screen.getByRole('link', { current: 'page' }).textContent).toContain('Reading momentum');
    expect(screen.getByText('(completed)', { exact: false })).toBeTruthy();
  });

  it('records the position on pause and completes the lesson with the button', async () => {
    const ui = userEvent.setup();
    const app = renderCourse('/courses/crs_1/lessons/les_2', enrolledCourse());
    const video = await screen.findByTestId<HTMLVideoElement>('lesson-video');
    fireEvent.loadedMetadata(video);
    fireEvent.pause(video);
    await waitFor(() =>
      expect(app.requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
        { positionSeconds: 42 },
      ]),
    );
    await ui.click(screen.getByRole('button', { name: 'Mark complete' }));
    await screen.findByText('✓ Completed');
    const puts = app.requests.filter((r) => r.method === 'PUT');
    expect(puts.at(-1)!.path).toBe('/api/v1/courses/crs_1/lessons/les_2/progress');
    expect(puts.at(-1)!.body).toEqual({ positionSeconds: 42, completed: true });
    expect(
      screen.getByRole('progressbar', { name: 'Course progress' }).getAttribute('aria-valuenow'),
    ).toBe('67');
  });

  it('shows a drip-locked lesson with the date it opens, and none of its content', async () => {
    renderCourse('/courses/crs_1/lessons/les_3', enrolledCourse());
    const opens = `Opens on ${formatDate(OPENS_AT)}`;
    expect((await screen.findByTestId('lesson-locked')).textContent).toBe(opens);
    const locked = screen.getByRole('link', { name: new RegExp(opens) });
    // The lock is a drawn icon, not an emoji (an empty box without an emoji font; issue 27).
    expect(locked.querySelector('svg[data-icon="lock"]')).not.toBeNull();
    expect(document.body.textContent).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(screen.queryByTestId('lesson-video')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark complete' })).toBeNull();
  });

  it('shows a visitor the outline, the playable preview and a link to buy', async () => {
    const course = enrolledCourse();
    course.enrolled = false;
    course.enrolledAt = null;
    course.resume = null;
    const [first, second] = course.modules[0]!.lessons;
    first!.video = { id: 'vid_1', captions: [] };
    first!.progress = null;
    second!.locked = true;
    second!.lockReason = 'not_enrolled';
    second!.video = null;
    second!.attachments = [
      { id: null, name: 'worksheet.pdf', sizeBytes: 2048, contentType: 'application/pdf' },
    ];
    const app = renderCourse('/courses/prd_1', course, false);
    act(() => {
      app.store.dispatch(sessionEnded());
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Welcome' })).toBeTruthy();
    expect(screen.getByText('Free preview')).toBeTruthy();
    expect(screen.getByTestId('course-buy-link').getAttribute('href')).toBe('/p/prd_1/momentum');
    expect(screen.queryByRole('button', { name: 'Mark complete' })).toBeNull();
    await waitFor(() =>
      expect(app.requests.some((r) => r.path === '/api/v1/videos/url')).toBe(true),
    );
    expect(
      app.requests.find((r) => r.path === '/api/v1/courses/prd_1')!.headers.get('authorization'),
    ).toBeNull();
  });
});
