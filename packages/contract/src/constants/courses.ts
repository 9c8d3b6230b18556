/** How a lesson is delivered. */
export const lessonKinds = ['video', 'text'] as const;
export type LessonKind = (typeof lessonKinds)[number];

/** Why a lesson is locked: the buyer is not enrolled, or its drip day has not come yet. */
export const lessonLockReasons = ['not_enrolled', 'drip'] as const;
export type LessonLockReason = (typeof lessonLockReasons)[number];

/** A lesson position is bounded to a day of video. */
export const LESSON_POSITION_MAX_SECONDS = 86_400;

/** What the course pages and the API say. */
export const courseMessages = {
  courseNotFound: 'Course not found.',
  lessonNotFound: 'Lesson not found.',
  videoNotFound: 'Video not found.',
  attachmentNotFound: 'Attachment not found.',
  notEnrolled: 'Buy this course to watch this lesson.',
  lockedUntil: 'This lesson opens later in the course.',
  noCourses: 'You are not enrolled in any course yet.',
  linkExpired: 'This link expired. Open the lesson again for a new one.',
  linkInvalid: 'This link is not valid. Open the lesson again for a new one.',
  positionRange: 'The position must be between 0 seconds and a day.',
} as const;
