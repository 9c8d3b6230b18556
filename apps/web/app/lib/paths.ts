// Page URLs one feature links to in another (issue 28): a link needs the URL, not the feature, so
// these live in the kit and features do not import each other for them. Course URLs stay out of
// the course views so a link to a course costs the shell nothing (ADR 025).
export const productPath = (p: { id: string; slug: string }) =>
  `/p/${encodeURIComponent(p.id)}/${encodeURIComponent(p.slug)}`;
export const bundlePath = (b: { id: string; slug: string }) =>
  `/b/${encodeURIComponent(b.id)}/${encodeURIComponent(b.slug)}`;
export const vendorPath = (v: { vendorUrl: string }) => `/v/${encodeURIComponent(v.vendorUrl)}`;
export const coursePath = (id: string) => `/courses/${encodeURIComponent(id)}`;
export const lessonPath = (courseId: string, lessonId: string) =>
  `${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}`;
/** The buyer's apps page: keys, devices and downloads. */
export const APPS_PATH = '/apps';
