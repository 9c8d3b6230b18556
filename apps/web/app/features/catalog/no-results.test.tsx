import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NoResults } from './no-results.tsx';

// React marks text boundaries with empty comments; the reader sees the text without them.
const render = (suggestions: Parameters<typeof NoResults>[0]['suggestions']) =>
  renderToString(
    <MemoryRouter>
      <NoResults suggestions={suggestions} />
    </MemoryRouter>,
  ).replace(/<!-- -->/g, '');

describe('empty search page', () => {
  it('links each suggested search with its category and count', () => {
    const html = render([
      { q: 'rsi', count: 4 },
      { q: 'gamma scanner', category: 'indicators', count: 1 },
      { q: 'momentum', count: 100 },
    ]);
    expect(html).toContain('href="/search?q=rsi"');
    expect(html).toContain('href="/search?q=gamma+scanner&amp;category=indicators"');
    expect(html).toContain('“gamma scanner” in Indicators <span class="text-slate-400">(1 result)');
    expect(html).toContain('“rsi” <span class="text-slate-400">(4 results)');
    expect(html).toContain('(100+ results)');
    expect(html).not.toContain('Try fewer words');
  });

  it('gives general advice when there is nothing to suggest', () => {
    const html = render([]);
    expect(html).toContain('Try fewer words, another spelling, or remove a filter.');
    expect(html).not.toContain('Other searches');
    expect(html).toContain('href="/search"');
  });
});
