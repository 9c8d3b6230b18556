import MarkdownIt from 'markdown-it';

/**
 * Vendors' and buyers' Markdown (descriptions, lesson notes, reviews, set-up guides) as HTML that is
 * safe to insert: CommonMark, raw HTML escaped, links only to http(s), mailto and this site's
 * public files (ADR 056). Pictures only where the caller names whose pictures may show (a guide's own
 * uploads): any other image stays its alt text, so no page loads a third party's file. The API
 * renders it for the public pages; the vendor editors' preview loads this module on demand, so the
 * parser never reaches a public page's JavaScript.
 */
const md = new MarkdownIt('commonmark', { html: false, linkify: true });
md.enable('linkify');
// Only addresses written with their scheme become links ("v2.0" or "ES.f" stay text).
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });

// Of this site's own paths only its public files (a guide's pictures on local storage).
const allowed = /^(?:https?:\/\/|mailto:|\/files\/public\/)/i;
md.validateLink = (url) => allowed.test(url.trim());

/** What a render is told: which picture addresses may show. */
type Env = { image?: ((src: string) => boolean) | undefined } & Record<string, unknown>;

md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const src = String(token.attrGet('src') ?? '');
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  if (!(env as Env | undefined)?.image?.(src)) return md.utils.escapeHtml(alt);
  token.attrSet('alt', alt);
  token.attrSet('loading', 'lazy');
  token.attrSet('decoding', 'async');
  return self.renderToken(tokens, idx, options);
};

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

/**
 * Sanitised HTML for Markdown `source`; empty for blank text. `image` says which picture addresses
 * may show as pictures; without it, none do.
 */
export function renderMarkdown(
  source: string,
  options: { image?: (src: string) => boolean } = {},
): string {
  return source.trim() ? md.render(source, { image: options.image } satisfies Env) : '';
}
