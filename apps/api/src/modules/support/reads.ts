import { supportRoutes } from '@tradeshelf/contract';
import { pageRead, type PageRead } from '../../platform/routes.ts';
import { platformTerms } from './service.ts';

/** Public reads SSR loaders take in process (ADR 013): the fee on the vendor and terms pages. */
export const supportReads: readonly PageRead[] = [
  pageRead(supportRoutes.platformTerms, async (deps) => platformTerms(deps)),
];
