import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

const html = (source: string) => renderMarkdown(source).trim();

describe('renderMarkdown (CommonMark, sanitised)', () => {
  it('makes a heading followed by a single newline a heading (issue 27)', () => {
    expect(html('## What you get\nEvery alert, in real time.')).toBe(
      '<h2>What you get</h2>\n<p>Every alert, in real time.</p>',
    );
  });

  it('keeps one h1 per page: # and ## are h2, deeper headings h3', () => {
    expect(html('# One\n### Three\n###### Six')).toBe('<h2>One</h2>\n<h3>Three</h3>\n<h3>Six</h3>');
  });

  it('renders lists, emphasis, code and quotes', () => {
    expect(html('- one\n- **two**\n\n1. *first*\n2. `x < y`')).toBe(
      '<ul>\n<li>one</li>\n<li><strong>two</strong></li>\n</ul>\n' +
        '<ol>\n<li><em>first</em></li>\n<li><code>x &lt; y</code></li>\n</ol>',
    );
    expect(html('```\n<b>bold</b>\n```')).toBe('<pre><code>&lt;b&gt;bold&lt;/b&gt;\n</code></pre>');
    expect(html('> Quoted')).toBe('<blockquote>\n<p>Quoted</p>\n</blockquote>');
  });

  it('links http(s) out in a new tab with nofollow ugc, mailto without a tab', () => {
    expect(html('[docs](https://example.com/a?b=1&c=2)')).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" rel="nofollow ugc noopener noreferrer" target="_blank">docs</a></p>',
    );
    expect(html('[mail us](mailto:help@example.com)')).toBe(
      '<p><a href="mailto:help@example.com" rel="nofollow ugc">mail us</a></p>',
    );
  });

  it('turns autolinks and written-out addresses into links, but not bare names', () => {
    expect(html('<https://example.com>')).toBe(
      '<p><a href="https://example.com" rel="nofollow ugc noopener noreferrer" target="_blank">https://example.com</a></p>',
    );
    expect(html('See https://example.com/x today')).toContain(
      '<a href="https://example.com/x" rel="nofollow ugc noopener noreferrer" target="_blank">',
    );
    expect(html('Version v2.0 on example.com')).toBe('<p>Version v2.0 on example.com</p>');
  });

  it('refuses javascript:, data:, vbscript: and relative links: they stay text', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java&#115;cript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example',
      '/account',
    ]) {
      const out = html(`[click](${href})`);
      // Left as the text that was written: no element, no address to follow.
      expect(out, href).not.toMatch(/<a|href/i);
      expect(out, href).toContain('click');
    }
    expect(html('<javascript:alert(1)>')).not.toContain('<a');
  });

  it('escapes raw HTML: scripts, event handlers and pictures never become elements', () => {
    const out = html(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\nHi <b onclick="x()">there</b>',
    );
    expect(out).not.toMatch(/<script|<img|<b /);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('shows no pictures: Markdown images stay text', () => {
    const out = html('![chart](https://example.com/x.png)');
    expect(out).not.toContain('<img');
    expect(out).toContain('chart');
  });

  it('shows only the pictures the caller allows; any other stays its alt text', () => {
    const own = (src: string) => src.startsWith('/files/public/guides/prd_1/');
    const out = renderMarkdown(
      '![Chart *settings*](/files/public/guides/prd_1/ab/1200.jpg)\n\n' +
        '![tracker](https://evil.example/t.gif)\n\n![other](/files/public/guides/prd_2/x.jpg)\n\n' +
        '![x" onerror="alert(1)](/files/public/guides/prd_1/y.jpg)',
      { image: own },
    );
    expect(out).toContain(
      '<img src="/files/public/guides/prd_1/ab/1200.jpg" alt="Chart settings" loading="lazy" decoding="async" />',
    );
    expect(out.match(/<img/g)).toHaveLength(2);
    expect(out).not.toContain('evil.example');
    expect(out).not.toContain('prd_2');
    expect(out).toContain('tracker');
    expect(out).toContain('alt="x&quot; onerror=&quot;alert(1)"');
    expect(out).not.toMatch(/ onerror="/);
  });

  it('is empty for blank text', () => {
    expect(renderMarkdown('  \n ')).toBe('');
  });
});
