// Page URLs one feature links to in another (issue 28): a link needs the URL, not the feature, so
// these live in the kit and features do not import each other for them. The paths themselves are
// the contract's, which the API uses for e-mails and the sitemap. Course URLs stay out of the course
// views so a link to a course costs the shell nothing (ADR 025).
import { bundlePath, coursePath, productPath, storefrontPath } from '@tradeshelf/contract/client';

export { bundlePath, coursePath, productPath };
export const vendorPath = (v: { vendorUrl: string }) => storefrontPath(v.vendorUrl);
export const lessonPath = (courseId: string, lessonId: string) =>
  `${coursePath(courseId)}/lessons/${encodeURIComponent(lessonId)}`;
/** The buyer's apps page: keys, devices and downloads. */
export const APPS_PATH = '/apps';
