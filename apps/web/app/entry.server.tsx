import { renderToString } from 'react-dom/server';
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router';
import { deferredViewsLoaded } from './lib/deferred-view.tsx';
import { DocumentStylesContext } from './lib/inline-stylesheet.tsx';
import { pageContext } from './lib/loader-api.ts';

/** The server build's own key: our Node server sets each request's page context under it. */
export { pageContext };

/** How long deferred loader data may take before React Router aborts it (none of ours is deferred). */
export const streamTimeout = 5_000;

// The same escaping React Router applies to the data it inlines in a <script> (lib/dom/ssr/markup.ts).
const ESCAPE: Record<string, string> = {
  '&': '\\u0026',
  '>': '\\u003e',
  '<': '\\u003c',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
const escapeScript = (s: string) => s.replace(/[&><\u2028\u2029]/g, (c) => ESCAPE[c]!);

/** A JSON-LD tag as React renders it without a nonce (text in a page is escaped, so only tags match). */
const JSON_LD = '<script type="application/ld+json">';

/** Puts `tags` just before `</body>` (at the end when there is none). */
function beforeBodyEnd(html: string, tags: string): string {
  const end = html.lastIndexOf('</body>');
  return end < 0 ? html + tags : html.slice(0, end) + tags + html.slice(end);
}

// React Router's `<Links>`/`<Scripts>` write these; `startAfterFirstPaint` moves them (ADR 069).
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const BOOT_MODULE = /<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/;

/**
 * Takes React Router's module preloads and boot module out of the page and adds a script that puts
 * them back once the browser reports its first contentful paint (ADR 069). Text and pictures then
 * reach the screen before ~130 KB of JavaScript is fetched, and hydration starts right after. A
 * hidden tab paints nothing, so there it starts at once; where paint timing is not offered, after
 * the first frame; and after 3 s in any case. The created script carries the nonce.
 */
function startAfterFirstPaint(html: string, attr: string): string {
  const boot = BOOT_MODULE.exec(html);
  if (!boot) return html;
  const hrefs: string[] = [];
  const out = html
    .replace(MODULE_PRELOAD, (_, href: string) => {
      hrefs.push(href);
      return '';
    })
    .replace(boot[0], '');
  const starter =
    `<script${attr}>(function(){var d=document,n=d.currentScript.nonce,done=0,P=window.PerformanceObserver;` +
    `function go(){if(done)return;done=1;` +
    `${escapeScript(JSON.stringify(hrefs))}.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;d.head.appendChild(l)});` +
    `var s=d.createElement("script");s.type="module";s.nonce=n;s.textContent=${escapeScript(JSON.stringify(boot[1]))};d.body.appendChild(s)}` +
    `function soon(){setTimeout(go,0)}` +
    `if(d.visibilityState!=="visible")return go();` +
    `d.addEventListener("visibilitychange",go);setTimeout(go,3e3);` +
    `if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)` +
    `new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();soon()}}).observe({type:"paint",buffered:true});` +
    `else requestAnimationFrame(soon)})()</script>`;
  return beforeBodyEnd(out, starter);
}

/** Reads the whole turbo-stream of loader data that the client's router hydrates from. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * Renders a whole page in one pass (ADR 013). Our loaders await their data, so nothing is left to
 * stream: the loader data is read first and the document is rendered with `renderToString`, which
 * is much cheaper than the default streaming `renderToPipeableStream` → PassThrough → web stream
 * chain. React Router's own `<StreamTransfer>` would suspend on that data stream, so it is switched
 * off and the same scripts it writes (`streamController.enqueue(…)` then `.close()`) are added
 * before `</body>`, after the `<Scripts>` that set up the controller. Our Node server passes a
 * `document` sink in the load context and takes the page from it; the Response then carries only
 * status and headers (building a body stream and reading it back cost ~6 % of a page).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
): Promise<Response> {
  const page = loadContext.get(pageContext);
  responseHeaders.set('Content-Type', 'text/html');
  // https://httpwg.org/specs/rfc9110.html#HEAD: the headers a GET would send, no body.
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const stream = routerContext.serverHandoffStream;
  const data = stream ? await readAll(stream) : null;
  // Views the browser loads later are rendered here in full (ADR 070): their code loads at start-up.
  const loading = deferredViewsLoaded();
  if (loading) await loading;
  // The server sends a policy that runs only scripts carrying this response's nonce (ADR 022).
  const nonce = page.nonce;
  const attr = nonce ? ` nonce="${nonce}"` : '';
  const read = page.stylesheet;
  let html = renderToString(
    <DocumentStylesContext.Provider value={read ? { read, nonce } : null}>
      <ServerRouter
        context={{ ...routerContext, serverHandoffStream: undefined }}
        url={request.url}
        nonce={nonce}
      />
    </DocumentStylesContext.Provider>,
  );
  // `<Meta>` renders routes' JSON-LD without a nonce prop; it is data, never run, but every inline
  // script in the page carrying the nonce keeps the rule simple to check.
  if (nonce) html = html.replaceAll(JSON_LD, `<script type="application/ld+json"${attr}>`);
  if (data !== null) {
    const scripts =
      `<script${attr}>window.__reactRouterContext.streamController.enqueue(${escapeScript(JSON.stringify(data))});</script>` +
      `<script${attr}>window.__reactRouterContext.streamController.close();</script>`;
    html = beforeBodyEnd(html, scripts);
  }
  html = startAfterFirstPaint(html, attr);
  if (!html.startsWith('<!DOCTYPE')) html = `<!DOCTYPE html>${html}`;
  const sink = page.document;
  if (sink) {
    sink.html = html;
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Response(html, { status: responseStatusCode, headers: responseHeaders });
}
