import { createAction } from '@reduxjs/toolkit';

/** docs/product.md#request-states: merges server-provided state into client state (SSR → client). */
export const hydrate = createAction<Record<string, unknown>>('hydrate');

/** Deep-merges plain objects; arrays and scalars from `from` replace. */
export function mergeState<T>(into: T, from: unknown): T {
  if (!from || typeof from !== 'object' || Array.isArray(from)) return (from as T) ?? into;
  if (!into || typeof into !== 'object' || Array.isArray(into)) return from as T;
  const out: Record<string, unknown> = { ...(into as Record<string, unknown>) };
  for (const [k, v] of Object.entries(from as Record<string, unknown>)) {
    out[k] = v !== null && typeof v === 'object' && !Array.isArray(v) ? mergeState(out[k], v) : v;
  }
  return out as T;
}
