import type { Course, CourseLesson } from '@tradeshelf/contract';
import { renderMarkdown } from '@tradeshelf/contract/rules/markdown';

export const OPENS_AT = '2026-12-01T10:00:00.000Z';

export function lesson(
  over: Partial<CourseLesson> & Pick<CourseLesson, 'id' | 'title'>,
): CourseLesson {
  return {
    moduleId: 'mod_1',
    position: 1,
    kind: 'video',
    preview: false,
    durationSeconds: 120,
    dripDays: 0,
    locked: false,
    lockReason: null,
    opensAt: null,
    video: null,
    text: null,
    textHtml: over.text ? renderMarkdown(over.text) : null,
    attachments: [],
    progress: null,
    ...over,
  };
}

export const progress = (positionSeconds: number, completed = false) => ({
  positionSeconds,
  completed,
  completedAt: completed ? '2026-11-20T10:00:00.000Z' : null,
  updatedAt: '2026-11-21T10:00:00.000Z',
});

export function enrolledCourse(): Course {
  return {
    id: 'crs_1',
    title: 'Momentum Trading Masterclass',
    product: {
      id: 'prd_1',
      slug: 'momentum',
      title: 'Momentum Trading Masterclass',
      vendor: { vendorUrl: 'alpha', displayName: 'Alpha Edge' },
    },
    offer: null,
    enrolled: true,
    enrolledAt: '2026-11-21T10:00:00.000Z',
    lessonCount: 3,
    modules: [
      {
        id: 'mod_1',
        title: 'Foundations',
        position: 1,
        progress: { completed: 1, total: 2, percent: 50 },
        lessons: [
          lesson({ id: 'les_1', title: 'Welcome', preview: true, progress: progress(0, true) }),
          lesson({
            id: 'les_2',
            title: 'Reading momentum',
            position: 2,
            video: { id: 'vid_2', captions: [{ language: 'en', label: 'English' }] },
            attachments: [
              {
                id: 'att_1',
                name: 'worksheet.pdf',
                sizeBytes: 2048,
                contentType: 'application/pdf',
              },
            ],
            progress: progress(42),
          }),
        ],
      },
      {
        id: 'mod_2',
        title: 'Advanced',
        position: 2,
        progress: { completed: 0, total: 1, percent: 0 },
        lessons: [
          lesson({
            id: 'les_3',
            moduleId: 'mod_2',
            title: 'Scaling out',
            dripDays: 7,
            locked: true,
            lockReason: 'drip',
            opensAt: OPENS_AT,
          }),
        ],
      },
    ],
    progress: { completed: 1, total: 3, percent: 33 },
    resume: {
      lessonId: 'les_2',
      moduleId: 'mod_1',
      title: 'Reading momentum',
      positionSeconds: 42,
    },
  };
}
