import { lazy, memo, Suspense, useEffect, useRef, type ComponentType } from 'react';

/** Views whose code the server is still loading: entry.server waits for them before it renders. */
const serverLoads = new Set<Promise<unknown>>();

/**
 * What entry.server awaits before it renders: every deferred view's code, loaded on the server.
 * Null once all have loaded, so a page render after start-up waits on nothing.
 */
export function deferredViewsLoaded(): Promise<unknown> | null {
  return serverLoads.size ? Promise.all(serverLoads) : null;
}

/**
 * How far below the screen a deferred view starts loading: a quarter of a screen. Its HTML is on the
 * page all along; what waits is only the code that answers to clicks, fetched as the reader scrolls.
 */
const AHEAD = '25% 0px 25% 0px';

/**
 * A view below the first screen whose code the browser loads only as the view nears the screen
 * (ADR 070). The server renders it in full, so its HTML is there for readers, crawlers and pages
 * without scripts; the browser keeps that HTML as it is (a Suspense boundary still dehydrated) until
 * the code has come, then hydrates it. On a client-side navigation it loads at once.
 *
 * The component is memoised and must get props that keep their identity between renders (loader
 * data, strings): a boundary still waiting for its code that receives new props is rendered afresh
 * and shows nothing until the code comes. Controls inside should be disabled until hydrated
 * (`useHydrated`), as a click on HTML that is not hydrated yet does nothing. `load()` starts it at
 * once, for a control elsewhere on the page that needs the view (e.g. "Write a review").
 */
export function deferredView<P extends object>(load: () => Promise<ComponentType<P>>) {
  let View: ComponentType<P> | null = null;
  let loading: Promise<void> | null = null;
  const start = () =>
    (loading ??= load().then((loaded) => {
      View = loaded;
    }));
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  if (import.meta.env.SSR) {
    const loaded = start();
    serverLoads.add(loaded);
    // One that failed stays: every render then fails with its error, rather than render without it.
    loaded.then(
      () => serverLoads.delete(loaded),
      () => undefined,
    );
  }
  const Later = lazy(() => opened.then(start).then(() => ({ default: View! })));

  function Deferred(props: P) {
    const box = useRef<HTMLDivElement>(null);
    useEffect(() => {
      const el = box.current;
      // The root marks the page hydrated after its children's effects: a view that finds the mark
      // came with a client-side navigation, and nobody is waiting on the first paint any more.
      if (!el || document.documentElement.dataset.hydrated || !('IntersectionObserver' in window))
        return open();
      const near = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) open();
        },
        { rootMargin: AHEAD },
      );
      near.observe(el);
      // A reader who reaches into it first (a link to it, the keyboard, a pointer) starts it too.
      el.addEventListener('focusin', open);
      el.addEventListener('pointerover', open);
      return () => {
        near.disconnect();
        el.removeEventListener('focusin', open);
        el.removeEventListener('pointerover', open);
      };
    }, []);
    if (import.meta.env.SSR && !View)
      throw new Error('A deferred view rendered before deferredViewsLoaded() resolved.');
    // The server renders the loaded view itself; the browser, the lazy one that waits for the screen.
    const Shown = import.meta.env.SSR ? View! : Later;
    return (
      <div ref={box}>
        <Suspense fallback={null}>
          <Shown {...props} />
        </Suspense>
      </div>
    );
  }

  return Object.assign(memo(Deferred), {
    /** Starts loading the view's code now; resolves when it has come. */
    load: () => {
      open();
      return start();
    },
  });
}
