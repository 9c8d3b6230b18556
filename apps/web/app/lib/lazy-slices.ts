import type { Slice } from '@reduxjs/toolkit';

/**
 * Slices a feature adds to the store when its code loads, so pages that never use the feature do
 * not download its reducers (ADR 038). This module imports nothing of the store's, so a slice file
 * can register itself without an import cycle; store.ts takes the registrations as they come.
 */
type Injector = (slice: Slice) => void;

const waiting: Slice[] = [];
let injector: Injector | null = null;

/** Called by a lazily loaded feature's slice file, once, at load. */
export function lazySlice<S extends Slice>(slice: S): S {
  if (injector) injector(slice);
  else waiting.push(slice);
  return slice;
}

/** Called by the store's module: injects what registered before it, then each one as it loads. */
export function takeLazySlices(inject: Injector): void {
  injector = inject;
  for (const slice of waiting.splice(0)) inject(slice);
}
