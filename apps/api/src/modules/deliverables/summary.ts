// What a product page says the product delivers (issue 29: "What you get" is derived, never
// hand-written): files per platform with their current version, whether a set-up guide exists, and
// what the product's kind and bindings give — Discord roles, a course, a licence, a TradingView script.
import {
  alertChannels,
  alertChannelWords,
  deliverablePlatformLabels,
  deliverablePlatforms,
  updatePolicyLabels,
  type DeliverySummary,
} from '@tradeshelf/contract';
import type { AppDeps } from '../../deps.ts';
import { givesDiscordRoles } from '../access/index.ts';
import { productScripts } from '../tradingview/index.ts';
import * as repo from './repository.ts';

export async function deliverySummary(
  deps: AppDeps,
  productId: string,
  kind: string,
): Promise<DeliverySummary> {
  const db = deps.database.db;
  const [current, settings, roles, scripts] = await Promise.all([
    repo.currentVersionsOf(db, [productId]),
    repo.settingsOf(db, productId),
    givesDiscordRoles(db, productId),
    productScripts(deps, productId),
  ]);
  const order = (p: string) => deliverablePlatforms.indexOf(p as never);
  return {
    files: current
      .sort((a, b) => order(a.platform) - order(b.platform))
      .map((v) => ({
        platform: v.platform,
        label: deliverablePlatformLabels[v.platform],
        version: v.version,
        releasedAt: v.publishedAt!.toISOString(),
      })),
    guide: settings.guide !== '',
    discordRoles: roles,
    course: kind === 'course',
    licence: kind === 'app',
    tradingViewScript: scripts.length > 0,
    alerts:
      kind === 'alert'
        ? // Discord is the vendor's choice per feed; "Discord roles" says so when it is bound.
          `Each alert as the vendor sends it: ${alertChannels
            .filter((c) => c !== 'discord')
            .map((c) => alertChannelWords[c])
            .join(', ')}`
        : null,
    updates: { policy: settings.updatePolicy, label: updatePolicyLabels[settings.updatePolicy] },
  };
}
