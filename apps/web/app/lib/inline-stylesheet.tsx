import { createContext, useContext } from 'react';

/** What the server gives the document: the built stylesheets' text, and the response's CSP nonce. */
export interface DocumentStyles {
  /** The text of a built stylesheet by its URL, or undefined when it cannot be read. */
  read(href: string): string | undefined;
  nonce?: string;
}

export const DocumentStylesContext = createContext<DocumentStyles | null>(null);

/**
 * The site's one stylesheet, inlined in the page's `<head>` (ADR 025): first paint waits for no
 * request, and the CSS (~6 KB compressed) travels inside the compressed HTML. The browser keeps the
 * element across client-side navigations, so it is sent once per page load. Where the server cannot
 * give the text (the Vite dev server), a plain `<link>`. In the browser the element is hydrated as
 * the server wrote it: React leaves `dangerouslySetInnerHTML` of a hydrated node as it finds it.
 */
export function InlineStylesheet({ href }: { href: string }) {
  const styles = useContext(DocumentStylesContext);
  const inlined =
    typeof document === 'undefined'
      ? styles?.read(href)
      : document.querySelector(`style[data-href="${CSS.escape(href)}"]`) !== null
        ? ''
        : undefined;
  if (inlined === undefined) return <link rel="stylesheet" href={href} />;
  return (
    <style
      data-href={href}
      nonce={styles?.nonce}
      dangerouslySetInnerHTML={{ __html: inlined }}
      suppressHydrationWarning
    />
  );
}
