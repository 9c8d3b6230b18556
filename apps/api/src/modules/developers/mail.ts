// The e-mail telling a vendor we turned a failing webhook endpoint off (ADR 057).
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import type { DisabledEndpoint, WebhookOwner } from '../../webhooks/engine.ts';
import { publicOrigin } from '../../platform/origin.ts';
import { emailIn } from '../users/index.ts';
import { vendorUserIds } from '../catalog/index.ts';

export function vendorWebhookOwner(deps: () => AppDeps): WebhookOwner {
  return {
    async onDisabled(tx: Tx, endpoint: DisabledEndpoint) {
      const d = deps();
      const userId = (await vendorUserIds(tx, [endpoint.ownerId])).get(endpoint.ownerId);
      const to = userId ? await emailIn(tx, userId) : null;
      if (!to) return;
      const id = await d.mailer.enqueue(tx, {
        to,
        subject: 'Webhook endpoint turned off',
        text: [
          `We turned off your webhook endpoint ${endpoint.url} after ${endpoint.consecutiveFailures} failed deliveries in a row.`,
          '',
          'Events for it are kept. Fix the endpoint, then turn it back on in Developers to send what waited:',
          `${publicOrigin(d.config)}/vendor/developers`,
        ].join('\n'),
      });
      return () => d.mailer.dispatch([id]);
    },
  };
}
