import { alertsMessages, alertsRoutes as r, ALERT_HOOK_BODY_MAX } from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { IMAGE_BODY_LIMIT, imageUpload } from '../../platform/image-upload.ts';
import { addressKey } from '../../platform/rate-limit.ts';
import { bearerOf, registerRoute } from '../../platform/routes.ts';
import { vendorRoutes } from '../catalog/index.ts';
import { discordSetting, removeDiscordChannel, setDiscordChannel } from './discord.ts';
import { feedOfHook, rotateHook, vendorFeed, vendorFeeds } from './feeds.ts';
import { checkedAlert, parseHookBody } from './hook.ts';
import { addAlertImage } from './images.ts';
import { LiveAlerts } from './live.ts';
import { publishAlert } from './publish.ts';
import { buyerFeed, heldFeeds, retryWebhook, setChannels } from './subscriptions.ts';
import { vendorAlerts } from './vendor.ts';

/** Wrong webhook URLs one address may try per minute. */
const BAD_HOOK_RULE = { name: 'alerts:bad-hook-ip', limit: 30, windowSeconds: 60 };

/** The path of the live stream (server-sent events; not JSON, so not a contract route). */
export const ALERTS_STREAM_PATH = '/api/v1/alerts-stream';

/** Alerts (issue 31, ADR 059): feeds, publishing from three sources, channels, the live stream. */
export async function alertsModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  const live = new LiveAlerts(deps);
  app.addHook('onClose', async () => live.close());
  const vendorRoute = vendorRoutes(app, alertsMessages.vendorsOnly);

  vendorRoute(r.vendorAlertFeeds, async ({ vendorId }) => ({
    feeds: await vendorFeeds(deps, vendorId),
  }));
  vendorRoute(r.publishAlert, async ({ params, body, vendorId, auth }) => {
    const feed = await vendorFeed(deps, vendorId, params.productId);
    const done = await publishAlert(
      deps,
      feed,
      checkedAlert(body),
      auth.apiKey ? 'api' : 'workspace',
    );
    live.wake();
    return done;
  });
  vendorRoute(
    r.addAlertImage,
    async ({ params, vendorId, auth, req }) =>
      addAlertImage(
        deps,
        auth.sub,
        await vendorFeed(deps, vendorId, params.productId),
        imageUpload(req),
      ),
    { bodyLimit: IMAGE_BODY_LIMIT, upload: true },
  );
  vendorRoute(r.vendorAlerts, ({ params, query, vendorId }) =>
    vendorAlerts(deps, vendorId, params.productId, query),
  );
  vendorRoute(r.rotateAlertHook, async ({ params, vendorId }) => ({
    feed: await rotateHook(deps, vendorId, params.productId),
  }));
  vendorRoute(r.vendorAlertDiscord, async ({ params, vendorId }) => ({
    discord: await discordSetting(deps, vendorId, params.productId),
  }));
  vendorRoute(r.setAlertDiscord, async ({ params, body, vendorId }) => ({
    discord: await setDiscordChannel(deps, vendorId, params.productId, body),
  }));
  vendorRoute(r.removeAlertDiscord, async ({ params, vendorId }) => ({
    discord: await removeDiscordChannel(deps, vendorId, params.productId),
  }));

  registerRoute(app, r.myAlertFeeds, ({ auth }) => heldFeeds(deps, auth.sub));
  registerRoute(app, r.alertFeed, ({ params, query, auth }) =>
    buyerFeed(deps, auth.sub, params.productId, query),
  );
  registerRoute(app, r.setAlertChannels, ({ params, body, auth }) =>
    setChannels(deps, auth.sub, params.productId, body),
  );
  registerRoute(app, r.retryAlertWebhook, ({ params, auth }) =>
    retryWebhook(deps, auth.sub, params.productId),
  );

  await app.register(async (scope) => {
    // The webhook reads its body as text whatever it says it is (TradingView sends text/plain, or
    // application/json when the message is JSON), so bad JSON gets our own 400.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: ALERT_HOOK_BODY_MAX },
      (_req, body, done) => done(null, body),
    );
    registerRoute(scope, r.alertHook, async ({ params, body, req }) => {
      const feed = await feedOfHook(deps, params.productId, params.secret).catch(async (err) => {
        // Wrong URLs count per address, so guessing secrets is limited too.
        await deps.limiter.consume([{ rule: BAD_HOOK_RULE, key: addressKey(req.ip) }]);
        throw err;
      });
      const done = await publishAlert(
        deps,
        feed,
        parseHookBody(body, req.headers['content-type']),
        'webhook',
      );
      live.wake();
      return done;
    });
  });

  app.get(ALERTS_STREAM_PATH, { schema: { hide: true } }, async (req, reply) => {
    const bearer = bearerOf(req);
    const claims = bearer ? await deps.tokens.verify(bearer, ['tradeshelf:api']) : null;
    if (!claims) throw new AppError('unauthorized', 'Sign in to continue.');
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    res.write(': live\n\n');
    await live.add(claims.sub, res);
  });
}
