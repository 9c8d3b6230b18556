import MarkdownIt from 'markdown-it';

/**
 * Vendors' and buyers' Markdown (descriptions, lesson notes, reviews) as HTML that is safe to insert:
 * CommonMark, raw HTML escaped, no pictures, links only to http(s) and mailto (ADR 056). The API
 * renders it for the public pages; the vendor editors' preview loads this module on demand, so the
 * parser never reaches a public page's JavaScript.
 */
const md = new MarkdownIt('commonmark', { html: false, linkify: true });
md.enable('linkify');
// Only addresses written with their scheme become links ("v2.0" or "ES.f" stay text).
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
// The old renderer showed no pictures: an image would load a third party's file on our pages.
md.disable('image');

const allowed = /^(?:https?:\/\/|mailto:)/i;
md.validateLink = (url) => allowed.test(url.trim());

// The page title is the one h1: "#" and "##" become h2, deeper headings h3 (the heading order holds).
md.core.ruler.push('heading_levels', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'heading_open' || token.type === 'heading_close')
      token.tag = token.tag === 'h1' || token.tag === 'h2' ? 'h2' : 'h3';
  }
});

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx]!;
  const href = String(token.attrGet('href') ?? '');
  // Refused addresses stay text before this; should one get here, it points nowhere.
  if (!allowed.test(href)) token.attrs = [];
  else if (!/^mailto:/i.test(href)) {
    token.attrSet('rel', 'nofollow ugc noopener noreferrer');
    token.attrSet('target', '_blank');
  } else token.attrSet('rel', 'nofollow ugc');
  return self.renderToken(tokens, idx, options);
};

/** Sanitised HTML for Markdown `source`; empty for blank text. */
export function renderMarkdown(source: string): string {
  return source.trim() ? md.render(source) : '';
}
