// The demo's deliverables as data (issue 29): the seed turns each into stored files, versions and a
// guide, so every demo product that promises a download has one.
import type { DeliverablePlatform, UpdatePolicy } from '@tradeshelf/contract';

export interface DemoVersion {
  platform: DeliverablePlatform;
  version: string;
  /** Release notes, Markdown. */
  notes: string;
  /** A file under `demo-files/`; or `link` for a link platform (thinkorswim). */
  file?: string;
  link?: string;
  /** When it came out, in days before the seed runs (older versions first). */
  releasedDaysAgo: number;
}

export interface DemoDelivery {
  /** The demo product's title (`catalog/demo-data.ts`). */
  title: string;
  updatePolicy: UpdatePolicy;
  /** The set-up guide, Markdown. */
  guide: string;
  versions: DemoVersion[];
}
