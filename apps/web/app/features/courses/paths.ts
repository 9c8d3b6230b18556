// Course URLs, apart from the views so a link to a course costs the shell nothing (ADR 025).
export const coursePath = (id: string) => `/courses/${encodeURIComponent(id)}`;
export const lessonPath = (courseId: string, lessonId: string) =>
  `${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}`;
