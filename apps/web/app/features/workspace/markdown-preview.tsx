// The vendor editors' preview: the same renderer as the API's, loaded only when a preview is shown, so
// the parser stays out of every other page's JavaScript (ADR 056).
import { useEffect, useState } from 'react';
import { MarkdownHtml } from '../../lib/markdown.tsx';

type Render = (source: string, options?: { image?: (src: string) => boolean }) => string;
let loaded: Render | null = null;

/** `image` says which pictures show, as the API decides for the page (a guide's own uploads). */
export function MarkdownPreview({
  source,
  image,
}: {
  source: string;
  image?: ((src: string) => boolean) | undefined;
}) {
  const [render, setRender] = useState<Render | null>(() => loaded);
  useEffect(() => {
    if (render) return;
    let live = true;
    void import('@tradeshelf/contract/rules/markdown').then((m) => {
      loaded = m.renderMarkdown;
      if (live) setRender(() => m.renderMarkdown);
    });
    return () => {
      live = false;
    };
  }, [render]);
  if (!render)
    return (
      <p className="text-slate-400" role="status">
        Loading the preview…
      </p>
    );
  return <MarkdownHtml html={render(source, { image })} testId="markdown-preview" />;
}
