// The courses module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { setDripDays } from './drip.ts';
export { storedCourseBytes } from './vendor-access.ts';
