// The courses module's public entry (ARCHITECTURE §2): other modules import this file only.
export { setDripDays } from './drip.ts';
export { storedCourseBytes } from './vendor-access.ts';
