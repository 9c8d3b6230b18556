/**
 * What a page of search results can say of their number honestly: search reads one page at a time
 * and counts no total, so a page followed by another says "at least" ("24+ results"); pages after the
 * first count what they add ("24+ more results").
 */
export function resultCountLabel({
  shown,
  more,
  laterPage,
}: {
  /** Products and bundles on this page. */
  shown: number;
  /** Another page follows. */
  more: boolean;
  /** This page follows another. */
  laterPage: boolean;
}): string {
  if (!shown && !laterPage) return 'No results';
  const noun = shown === 1 && !more ? 'result' : 'results';
  return `${shown}${more ? '+' : ''} ${laterPage ? 'more ' : ''}${noun}`;
}
