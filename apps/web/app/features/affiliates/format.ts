/** "Nov 2026" from "2026-11". */
const monthFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
export const monthLabel = (month: string) => monthFormat.format(new Date(`${month}-01T00:00:00Z`));
