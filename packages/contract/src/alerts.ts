import { z } from 'zod';
import { idSchema, isoDateTime, pageQuery } from './common.ts';
import {
  ALERT_HOOK_BODY_MAX,
  ALERT_ID_MAX,
  ALERT_PRICE_MAX,
  ALERT_SYMBOL_MAX,
  ALERT_TEXT_MAX,
  alertChannels,
  alertDeliveryStatuses,
  alertSides,
  alertSources,
  alertsMessages as m,
} from './constants/alerts.ts';
import { hasUnreadableCharacters } from './rules/text.ts';
import { defineRoute } from './route.ts';

/** Issue 31, ADR 059: alert feeds, their sources and channels (docs/product.md#alerts). */

export const ALERT_SYMBOL_PATTERN = /^[A-Za-z0-9._:/!-]+$/;
export const ALERT_PRICE_PATTERN = /^-?\d{1,15}(\.\d{1,8})?$/;

export const alertSchema = z
  .object({
    id: z.string(),
    productId: z.string(),
    symbol: z.string().nullable(),
    side: z.enum(alertSides).nullable(),
    /** The market price as the vendor wrote it (a decimal string, not money). */
    price: z.string().nullable(),
    text: z.string(),
    /** A chart picture (a JPEG up to 1 200 px wide, absolute URL), or null. */
    imageUrl: z.string().nullable(),
    source: z.enum(alertSources),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Alert' });
export type Alert = z.infer<typeof alertSchema>;

const symbolField = z
  .string({ error: m.symbol })
  .trim()
  .max(ALERT_SYMBOL_MAX, m.symbol)
  .refine((v) => v === '' || ALERT_SYMBOL_PATTERN.test(v), m.symbol);
const priceField = z
  .string({ error: m.price })
  .trim()
  .max(ALERT_PRICE_MAX, m.price)
  .refine((v) => v === '' || ALERT_PRICE_PATTERN.test(v), m.price);
const textField = z
  .string({ error: m.text })
  .refine((v) => !hasUnreadableCharacters(v, true), m.text)
  .trim()
  .max(ALERT_TEXT_MAX, m.text);

export const publishAlertBody = z
  .object({
    symbol: symbolField.default(''),
    side: z.enum(alertSides, { error: m.side }).nullable().default(null),
    price: priceField.default(''),
    text: textField.default(''),
    /** A chart picture: the `imageId` that adding it to this feed answered. */
    image: z
      .string({ error: m.image })
      .trim()
      .max(200, m.image)
      .refine((v) => !hasUnreadableCharacters(v), m.image)
      .optional(),
    /** The sender's id: the same id within the replay window is answered, not sent again. */
    id: z
      .string({ error: m.alertId })
      .trim()
      .min(1, m.alertId)
      .max(ALERT_ID_MAX, m.alertId)
      .refine((v) => !hasUnreadableCharacters(v), m.alertId)
      .optional(),
  })
  .refine((b) => b.symbol !== '' || b.text !== '', { error: m.empty, path: ['text'] });
export type PublishAlertBody = z.input<typeof publishAlertBody>;

const countsSchema = z.object({
  channel: z.enum(alertChannels),
  queued: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
});

export const vendorAlertSchema = alertSchema
  .extend({
    /** Subscribers it was fanned out to (current holders when it was published). */
    recipients: z.number().int(),
    channels: z.array(countsSchema),
    /** Why deliveries failed, most frequent first. */
    failures: z.array(
      z.object({ channel: z.enum(alertChannels), reason: z.string(), count: z.number().int() }),
    ),
  })
  .meta({ id: 'VendorAlert' });
export type VendorAlert = z.infer<typeof vendorAlertSchema>;

export const alertFeedSchema = z
  .object({
    productId: z.string(),
    title: z.string(),
    isActive: z.boolean(),
    /** Paste it into a TradingView alert's "Webhook URL": it posts the alert's message here. */
    webhookUrl: z.string(),
    subscribers: z.number().int(),
    lastAlertAt: isoDateTime.nullable(),
    /** The Discord channel each alert is posted to, when the vendor set one. */
    discordChannel: z.object({ id: z.string(), name: z.string() }).nullable(),
  })
  .meta({ id: 'AlertFeed' });
export type AlertFeed = z.infer<typeof alertFeedSchema>;

export const alertDeliverySchema = z.object({
  channel: z.enum(alertChannels),
  status: z.enum(alertDeliveryStatuses),
  reason: z.string().nullable(),
});

export const buyerAlertSchema = alertSchema
  .extend({ deliveries: z.array(alertDeliverySchema) })
  .meta({ id: 'BuyerAlert' });
export type BuyerAlert = z.infer<typeof buyerAlertSchema>;

export const alertChannelsSchema = z
  .object({
    web: z.boolean(),
    email: z.boolean(),
    webhook: z
      .object({
        url: z.string(),
        /** Paused by us after repeated failures; "Retry" resumes it and sends what failed. */
        paused: z.boolean(),
        consecutiveFailures: z.number().int(),
        /** The Standard Webhooks signing secret (`whsec_…`) to verify deliveries with. */
        secret: z.string(),
      })
      .nullable(),
    /**
     * The feed's channel in the vendor's Discord server, null when it has none. Reading it takes a
     * linked Discord account holding the product's role (given while you hold the product).
     */
    discord: z
      .object({
        /** Shown among your deliveries. */
        on: z.boolean(),
        serverName: z.string(),
        channelName: z.string(),
        url: z.string(),
        /** Your role is in place now: you can read the channel. */
        readable: z.boolean(),
        /** What to do to read it, or that you can. */
        note: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'AlertChannels' });
export type AlertChannels = z.infer<typeof alertChannelsSchema>;

export const setAlertChannelsBody = z.object({
  web: z.boolean(),
  email: z.boolean(),
  /** Null (or empty) turns the webhook channel off. */
  webhookUrl: z
    .string({ error: m.webhookUrl })
    .trim()
    .max(2000, m.webhookUrl)
    .refine((v) => v === '' || URL.canParse(v), m.webhookUrl)
    .nullable(),
  /** The feed's Discord channel among your deliveries; left as it is when absent. */
  discord: z.boolean().optional(),
});
export type SetAlertChannelsBody = z.input<typeof setAlertChannelsBody>;

/**
 * A feed's Discord channel as the vendor sees it: whether the product is bound to a server (the
 * channel's readers are the roles the access engine gives holders), the channel, who can read it
 * now and what stops posting, in words with the fix.
 */
export const alertDiscordSchema = z
  .object({
    /** The product is bound to a Discord server's roles (Delivery → Discord). */
    bound: z.boolean(),
    server: z.object({ id: z.string(), name: z.string() }).nullable(),
    /** The roles holders get: the channel's readers. */
    roles: z.array(z.object({ id: z.string(), name: z.string() })),
    channel: z.object({ id: z.string(), name: z.string(), url: z.string() }).nullable(),
    /** Role names that can view the channel now; `everyone` when @everyone can. */
    readers: z.array(z.string()),
    everyone: z.boolean(),
    problems: z.array(z.string()),
    /** The name a new channel gets: `<feed-name>-alerts`. */
    suggestedName: z.string(),
  })
  .meta({ id: 'AlertDiscord' });
export type AlertDiscord = z.infer<typeof alertDiscordSchema>;

export const setAlertDiscordBody = z.object({
  /** An existing text channel of the bound server; null creates `#<feed-name>-alerts`. */
  channelId: z
    .string({ error: m.discordChannelId })
    .trim()
    .regex(/^\d{15,21}$/, m.discordChannelId)
    .nullable(),
});
export type SetAlertDiscordBody = z.input<typeof setAlertDiscordBody>;

const productParams = z.object({ productId: idSchema });

export const alertsRoutes = {
  vendorAlertFeeds: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/alert-feeds',
    auth: 'bearer',
    summary: "The storefront's alert products, each with its webhook URL and subscriber count.",
    tags: ['vendor-alerts'],
    status: 200,
    response: z.object({ feeds: z.array(alertFeedSchema) }),
  }),
  addAlertImage: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/alert-feeds/{productId}/images',
    auth: 'bearer',
    apiKeyScope: 'alerts:write',
    summary:
      'Adds a chart picture for an alert of this feed (multipart field `file`: PNG, JPEG or WebP up to 2 MB, decoded and stored cleaned, at most 1 200 px). Publish with its `imageId` as `image`.',
    tags: ['vendor-alerts'],
    status: 201,
    multipart: true,
    params: productParams,
    response: z.object({ imageId: z.string(), imageUrl: z.string() }),
  }),
  publishAlert: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/alert-feeds/{productId}/alerts',
    auth: 'bearer',
    apiKeyScope: 'alerts:write',
    summary:
      "Publishes an alert to the product's current subscribers, on the channels each chose. An `id` seen in the last 10 minutes is not sent again.",
    tags: ['vendor-alerts'],
    status: 201,
    params: productParams,
    body: publishAlertBody,
    response: z.object({
      alert: alertSchema,
      duplicate: z.boolean(),
      recipients: z.number().int(),
    }),
  }),
  vendorAlerts: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/alert-feeds/{productId}/alerts',
    auth: 'bearer',
    summary: "The feed's alerts, newest first, each with its fan-out per channel.",
    tags: ['vendor-alerts'],
    status: 200,
    params: productParams,
    query: pageQuery,
    response: z.object({ alerts: z.array(vendorAlertSchema), nextCursor: z.string().nullable() }),
  }),
  rotateAlertHook: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/alert-feeds/{productId}/webhook-url',
    auth: 'bearer',
    summary: 'Makes a new webhook URL for the feed; the old one stops working at once.',
    tags: ['vendor-alerts'],
    status: 200,
    params: productParams,
    response: z.object({ feed: alertFeedSchema }),
  }),
  vendorAlertDiscord: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/alert-feeds/{productId}/discord',
    auth: 'bearer',
    summary:
      "The feed's Discord channel: the bound server and roles, the channel, who can read it and what stops posting.",
    tags: ['vendor-alerts'],
    status: 200,
    params: productParams,
    response: z.object({ discord: alertDiscordSchema }),
  }),
  setAlertDiscord: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/alert-feeds/{productId}/discord',
    auth: 'bearer',
    summary:
      'Sets the Discord channel alerts are posted to: an existing channel of the bound server, or (channelId null) a new `#<feed-name>-alerts` only the product’s roles can read.',
    tags: ['vendor-alerts'],
    status: 200,
    params: productParams,
    body: setAlertDiscordBody,
    response: z.object({ discord: alertDiscordSchema }),
  }),
  removeAlertDiscord: defineRoute({
    method: 'DELETE',
    path: '/api/v1/vendor/alert-feeds/{productId}/discord',
    auth: 'bearer',
    summary: 'Stops posting alerts to Discord (the channel stays in the server).',
    tags: ['vendor-alerts'],
    status: 200,
    params: productParams,
    response: z.object({ discord: alertDiscordSchema }),
  }),
  alertHook: defineRoute({
    method: 'POST',
    path: '/api/v1/alert-hooks/{productId}/{secret}',
    auth: 'none',
    summary:
      "Publishes an alert from a TradingView alert (or any sender): the alert's message as plain text, or JSON.",
    description: [
      "Paste the feed's webhook URL into a TradingView alert. A plain-text message becomes the alert's text.",
      'A JSON message may carry `symbol` (or `ticker`), `side` (or `action`: buy, sell, long, short, close,',
      'exit), `price` (or `close`), `text` (or `message`) and `id`; the same `id` (or, without one, the same',
      'body) within 10 minutes is not sent twice. Alerts per feed are limited per minute (429).',
    ].join('\n'),
    tags: ['vendor-alerts'],
    status: 202,
    params: z.object({ productId: idSchema, secret: z.string().min(1).max(200) }),
    body: z.string().max(ALERT_HOOK_BODY_MAX),
    response: z.object({
      alert: alertSchema,
      duplicate: z.boolean(),
      recipients: z.number().int(),
    }),
  }),
  myAlertFeeds: defineRoute({
    method: 'GET',
    path: '/api/v1/alerts',
    auth: 'bearer',
    summary: 'The alert products you hold now, each with its latest alert time.',
    tags: ['alerts'],
    status: 200,
    response: z.object({
      feeds: z.array(
        z.object({
          productId: z.string(),
          title: z.string(),
          lastAlertAt: isoDateTime.nullable(),
        }),
      ),
    }),
  }),
  alertFeed: defineRoute({
    method: 'GET',
    path: '/api/v1/alerts/{productId}',
    auth: 'bearer',
    summary:
      'A feed you hold: your channels and its alerts, newest first, each with where it went to you.',
    tags: ['alerts'],
    status: 200,
    params: productParams,
    query: pageQuery,
    response: z.object({
      feed: z.object({ productId: z.string(), title: z.string(), vendorName: z.string() }),
      channels: alertChannelsSchema,
      alerts: z.array(buyerAlertSchema),
      nextCursor: z.string().nullable(),
    }),
  }),
  setAlertChannels: defineRoute({
    method: 'PUT',
    path: '/api/v1/alerts/{productId}/channels',
    auth: 'bearer',
    summary:
      'Chooses how alerts of a feed you hold reach you: live in the web app, by e-mail, to your webhook URL.',
    tags: ['alerts'],
    status: 200,
    params: productParams,
    body: setAlertChannelsBody,
    response: z.object({ channels: alertChannelsSchema }),
  }),
  retryAlertWebhook: defineRoute({
    method: 'POST',
    path: '/api/v1/alerts/{productId}/webhook/retry',
    auth: 'bearer',
    summary: 'Resumes a paused webhook and sends the alerts that failed to it again.',
    tags: ['alerts'],
    status: 200,
    params: productParams,
    response: z.object({ channels: alertChannelsSchema, resent: z.number().int() }),
  }),
} as const;
