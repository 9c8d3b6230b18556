import { randomUUID } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { AVATAR_MAX_BYTES } from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import { accessModule } from './modules/access/routes.ts';
import * as affiliates from './modules/affiliates/index.ts';
import { affiliatesModule } from './modules/affiliates/routes.ts';
import { analyticsModule } from './modules/analytics/routes.ts';
import { authModule } from './modules/auth/routes.ts';
import { catalogModule } from './modules/catalog/routes.ts';
import { coursesModule } from './modules/courses/routes.ts';
import { deliverablesModule } from './modules/deliverables/routes.ts';
import { devModule } from './modules/dev/routes.ts';
import { developersModule } from './modules/developers/routes.ts';
import { alertsModule } from './modules/alerts/routes.ts';
import * as licences from './modules/licences/index.ts';
import { licencesModule } from './modules/licences/routes.ts';
import { membershipModule } from './modules/membership/routes.ts';
import { ordersModule } from './modules/orders/routes.ts';
import { privacyModule } from './modules/privacy/routes.ts';
import { reviewsModule } from './modules/reviews/routes.ts';
import { supportModule } from './modules/support/routes.ts';
import { tradingviewModule } from './modules/tradingview/routes.ts';
import { usersModule } from './modules/users/routes.ts';
import { sandboxDiscordModule } from './integrations/chat/sandbox-routes.ts';
import { stripeSandboxModule } from './integrations/payments/stripe-sandbox-routes.ts';
import { API_CSP, DOCS_CSP } from './platform/csp.ts';
import { registerErrorHandling } from './platform/errors.ts';
import { createResponseSerializerCompiler, verifyResponses } from './platform/serializer.ts';
import { filesModule } from './integrations/storage/local-routes.ts';
import { httpServerOptions, registerHttpGuards } from './platform/http.ts';
import { BROTLI_QUALITY, COMPRESS_THRESHOLD } from './platform/compression.ts';
import { isApiPath, registerWebAssets, type WebApp } from './platform/web.ts';
import { registerMetrics } from './platform/metrics.ts';
import { registerTracing } from './platform/tracing.ts';
import { registerRequestLines } from './platform/logging.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Fastify's `trustProxy` for `TRUST_PROXY` (ADR 049). A count of n trusts the socket's peer and the
 * n-1 hops before it, so `req.ip` is the right-most X-Forwarded-For address no trusted proxy wrote.
 */
function trustProxyOption(trust: Config['TRUST_PROXY']): FastifyServerOptions['trustProxy'] {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

export async function buildApp(
  deps: AppDeps,
  options: {
    logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
    web?: WebApp | null;
    /** One short line per request (`LOG_FORMAT=pretty`) instead of Fastify's two JSON lines. */
    requestLines?: boolean;
  } = {},
): Promise<FastifyInstance> {
  const limits = {
    requestTimeoutSeconds: deps.config.REQUEST_TIMEOUT_SECONDS,
    uploadTimeoutSeconds: deps.config.UPLOAD_TIMEOUT_SECONDS,
    shutdownGraceSeconds: deps.config.SHUTDOWN_GRACE_SECONDS,
  };
  const app = Fastify({
    ...httpServerOptions(limits),
    ...(options.logger && typeof options.logger === 'object' && 'child' in options.logger
      ? { loggerInstance: options.logger as FastifyBaseLogger }
      : { logger: (options.logger as FastifyServerOptions['logger']) ?? false }),
    trustProxy: trustProxyOption(deps.config.TRUST_PROXY),
    ...(options.requestLines
      ? { logController: new LogController({ disableRequestLogging: true }) }
      : {}),
    bodyLimit: 256 * 1024,
    // Honour a caller's request id (load balancer, web SSR) so one request is traceable end to end.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  app.decorate('deps', deps);
  app.setValidatorCompiler(validatorCompiler);
  // Compiled per response schema (ADR 017); tests and development also check each answer against zod.
  app.setSerializerCompiler(createResponseSerializerCompiler({ verify: verifyResponses }));
  app.addHook('onSend', async (req, reply) => {
    void reply.header('x-request-id', req.id);
  });
  registerHttpGuards(app, limits, options.web ? { isApiPath } : undefined);
  registerMetrics(app, deps.metrics, deps.config);
  registerTracing(app);
  if (options.requestLines) registerRequestLines(app);

  // Everything gets the API's CSP; pages and HTML routes send their own with a nonce (ADR 022).
  // X-Frame-Options says what every CSP here says with frame-ancestors 'none' (helmet's default is SAMEORIGIN).
  await app.register(helmet, {
    contentSecurityPolicy: API_CSP,
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
  });
  // JSON and other text answers over 1 KB, brotli or gzip (ADR 025). Pages are hijacked replies and
  // compress themselves (platform/web.ts); built assets were compressed at build time.
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      },
    },
    // Not octet-stream (the default includes it): downloads are archives and media already packed.
    customTypes: /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]xml(?:;|$)|javascript/,
  });
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tradeshelf API',
        version: '1.0.0',
        description:
          'Errors: every non-2xx body is `{ error, code, fields? }`. Money is integer minor units with a currency.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // ADR 057: vendor routes that say `x-api-key-scope` also take a key with that scope.
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'tsk_live_… / tsk_test_… API key',
            description:
              'A vendor API key (Developers screen of the workspace). Each route that takes one names its scope in `x-api-key-scope`; keys reach no other route.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const web = options.web ?? null;
  registerErrorHandling(app, web ? { listener: web.listener, isApiPath } : undefined);
  if (web) {
    await registerWebAssets(app, web);
  }

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await deps.database.db.execute(sql`select 1`);
      // Still ready without Redis: limits then count per node (ADR 050), and this says so.
      return { status: 'ready', rateLimitStore: await deps.limiter.storeState() };
    } catch {
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ error: 'Database unreachable.', code: 'service_unavailable' });
    }
  });

  await app.register(authModule);
  await app.register(usersModule);
  await app.register(analyticsModule);
  await app.register(catalogModule);
  // Orders reaches affiliates through what the wiring hands it (affiliates reads orders' ledger).
  await app.register(ordersModule, { affiliates });
  await app.register(accessModule);
  await app.register(coursesModule);
  await app.register(licencesModule);
  // Deliverables show an app's licence key; the licences module builds on deliverables.
  await app.register(deliverablesModule, { hooks: { licenceKeyOf: licences.licenceKeyOf } });
  await app.register(tradingviewModule);
  await app.register(reviewsModule);
  await app.register(supportModule);
  await app.register(membershipModule);
  await app.register(affiliatesModule);
  await app.register(developersModule);
  await app.register(privacyModule);
  await app.register(alertsModule);
  if (deps.stripeSandbox) await app.register(stripeSandboxModule);
  if (deps.discordSandbox) await app.register(sandboxDiscordModule);
  await app.register(filesModule);
  if (deps.config.APP_ENV === 'local') await app.register(devModule);
  return app;
}
