import type { VendorLesson } from '@tradeshelf/contract';

/** A text lesson of module `moduleId` at `position`, without learners. */
export const lesson = (id: string, moduleId: string, position: number): VendorLesson => ({
  id,
  moduleId,
  title: `Lesson ${id}`,
  position,
  kind: 'text',
  body: '',
  dripDays: 0,
  preview: false,
  durationSeconds: null,
  video: null,
  attachments: [],
  learners: 0,
});
