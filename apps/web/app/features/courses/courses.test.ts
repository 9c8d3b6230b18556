import { describe, expect, it } from 'vitest';
import { sessionEnded } from '../auth/slice.ts';
import { fetchCourseDetails, fetchVideoUrl, saveLessonProgress } from './api.ts';
import { courseSlice, initialCourseState, type CourseState } from './slice.ts';
import { enrolledCourse, progress } from './test-fixtures.ts';

const reduce = (s: CourseState, ...actions: Array<{ type: string; payload?: unknown }>) =>
  actions.reduce((x, a) => courseSlice.reducer(x, a), s);

describe('course group', () => {
  it('keeps the course while it reloads by its id or product id, drops another one', () => {
    let s = reduce(
      initialCourseState,
      fetchCourseDetails.fulfilled(enrolledCourse(), 'r', 'prd_1'),
    );
    s = reduce(s, fetchCourseDetails.pending('r2', 'crs_1'));
    expect(s.details.status).toBe('loading');
    expect(s.details.data?.id).toBe('crs_1');
    s = reduce(s, fetchCourseDetails.pending('r3', 'crs_other'));
    expect(s.details.data).toBeNull();
  });

  it('a saved completion updates the lesson, its module, the course and the resume point', () => {
    const arg = { courseId: 'crs_1', lessonId: 'les_2', positionSeconds: 80, completed: true };
    const saved = {
      lessonId: 'les_2',
      progress: progress(80, true),
      course: { completed: 2, total: 3, percent: 67 },
    };
    const s = reduce(
      initialCourseState,
      fetchCourseDetails.fulfilled(enrolledCourse(), 'r', 'crs_1'),
      saveLessonProgress.fulfilled(saved, 'r2', arg),
    );
    const course = s.details.data!;
    expect(course.modules[0]!.lessons[1]!.progress).toEqual(progress(80, true));
    expect(course.modules[0]!.progress).toEqual({ completed: 2, total: 2, percent: 100 });
    expect(course.modules[1]!.progress.completed).toBe(0);
    expect(course.progress.percent).toBe(67);
    expect(course.resume?.positionSeconds).toBe(80);
  });

  it('a new video request forgets the last signed URL; the session ending clears everything', () => {
    const video = {
      url: '/files/a.mp4?sig=1',
      expiresAt: '2026-11-24T10:00:00.000Z',
      contentType: 'video/mp4',
      lessonId: 'les_2',
      captions: [],
    };
    let s = reduce(initialCourseState, fetchVideoUrl.fulfilled(video, 'r', 'vid_2'));
    expect(s.video.data?.url).toBe(video.url);
    s = reduce(s, fetchVideoUrl.pending('r2', 'vid_1'));
    expect(s.video.data).toBeNull();
    s = reduce(s, fetchCourseDetails.fulfilled(enrolledCourse(), 'r3', 'crs_1'), sessionEnded());
    expect(s).toEqual(initialCourseState);
  });
});
