/**
 * Public content changed (a vendor edited, published or unpublished a product): every cache of what
 * the public sees (rendered pages, search results) drops its copies, so nobody is served the old
 * version after the edit. One set of listeners per app instance (tests build many), keyed by its deps.
 */
type Listener = () => void;

const listeners = new WeakMap<object, Set<Listener>>();

export function onContentChange(owner: object, listener: Listener): () => void {
  let set = listeners.get(owner);
  if (!set) {
    set = new Set();
    listeners.set(owner, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

export function contentChanged(owner: object): void {
  for (const listener of listeners.get(owner) ?? []) listener();
}
