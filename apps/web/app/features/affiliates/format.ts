import { lazyDateFormat } from '../../lib/format.ts';

/** "Nov 2026" from "2026-11". */
const monthFormat = lazyDateFormat({ month: 'short', year: 'numeric', timeZone: 'UTC' });
export const monthLabel = (month: string) => monthFormat(new Date(`${month}-01T00:00:00Z`));
