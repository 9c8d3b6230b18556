import { describe, expect, it } from 'vitest';
import { queryFromUrl } from '../routes/search.tsx';
import { searchIndexing } from './search-seo.ts';

const of = (url: string) => searchIndexing(queryFromUrl(new URL(url, 'http://shop.test')));

describe('search URLs for search engines', () => {
  it('indexes /search and category landing pages, canonical without empty parameters', () => {
    expect(of('/search')).toEqual({ canonicalPath: '/search', noindex: false });
    expect(of('/search?q=&category=')).toEqual({ canonicalPath: '/search', noindex: false });
    expect(of('/search?q=%20&category=indicators&kind=')).toEqual({
      canonicalPath: '/search?category=indicators',
      noindex: false,
    });
  });

  it('keeps filtered, sorted and paged results out of the index', () => {
    expect(of('/search?q=rsi&category=')).toEqual({
      canonicalPath: '/search?q=rsi',
      noindex: true,
    });
    expect(of('/search?category=indicators&platform=tradingview&q=')).toEqual({
      canonicalPath: '/search?category=indicators&platform=tradingview',
      noindex: true,
    });
    expect(of('/search?sort=newest').noindex).toBe(true);
    expect(of('/search?min=10&max=50')).toEqual({
      canonicalPath: '/search?min=10&max=50',
      noindex: true,
    });
    // A later page is the same results: noindex, and its canonical names no cursor.
    expect(of('/search?category=indicators&cursor=abc')).toEqual({
      canonicalPath: '/search?category=indicators',
      noindex: true,
    });
  });

  it('drops parameters it does not understand, and unknown values', () => {
    expect(of('/search?utm_source=x&category=nope&platform=')).toEqual({
      canonicalPath: '/search',
      noindex: false,
    });
  });
});
