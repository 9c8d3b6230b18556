// Course URLs, apart from the views so a link to a course costs the shell nothing (ADR 025).
import { coursePath } from '@tradeshelf/contract/client';

export { coursePath };
export const lessonPath = (courseId: string, lessonId: string) =>
  `${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}`;
