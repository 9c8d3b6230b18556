/**
 * Alerts that arrive (issue 31, ADR 059): a vendor's alert product is a feed; each alert reaches the
 * product's current holders on the channels each chose. Plain values, no zod (ADR 012).
 * Behaviour: docs/product.md#alerts.
 */

/** Where an alert came from. */
export const alertSources = ['workspace', 'api', 'webhook'] as const;
export type AlertSource = (typeof alertSources)[number];

/** What the alert says to do; TradingView's `long`/`short`/`exit` words are read as these. */
export const alertSides = ['buy', 'sell', 'close'] as const;
export type AlertSide = (typeof alertSides)[number];

/** The words a webhook body may use for a side, and the side each means. */
export const alertSideWords: Record<string, AlertSide> = {
  buy: 'buy',
  long: 'buy',
  sell: 'sell',
  short: 'sell',
  close: 'close',
  exit: 'close',
  flat: 'close',
};

/**
 * The channels an alert goes out on: a subscriber picks per feed; `discord` is the feed's channel in
 * the vendor's Discord server, offered only when the vendor set one.
 */
export const alertChannels = ['web', 'email', 'webhook', 'discord'] as const;
export type AlertChannel = (typeof alertChannels)[number];

export const alertChannelWords: Record<AlertChannel, string> = {
  web: 'in the web app, live',
  email: 'by e-mail',
  webhook: 'to your own webhook URL',
  discord: "in the vendor's Discord server",
};

/** Discord caps channel names at 100 characters; ours is `<feed name>-alerts`. */
export const ALERT_DISCORD_CHANNEL_SUFFIX = '-alerts';

export const alertDeliveryStatuses = ['queued', 'delivered', 'failed'] as const;
export type AlertDeliveryStatus = (typeof alertDeliveryStatuses)[number];

export const ALERT_SYMBOL_MAX = 32;
export const ALERT_TEXT_MAX = 1000;
export const ALERT_PRICE_MAX = 24;
/** The sender's id for an alert: the same id again within the replay window is not sent twice. */
export const ALERT_ID_MAX = 100;
/** The largest webhook body we read (TradingView messages are far smaller). */
export const ALERT_HOOK_BODY_MAX = 8 * 1024;
/** The type of the JSON a subscriber's webhook receives. */
export const ALERT_WEBHOOK_TYPE = 'alert.published';

export const alertsMessages = {
  vendorsOnly: 'Only vendors can publish alerts. Set up your storefront first.',
  image: 'That chart picture was not uploaded to this feed. Add it again.',
  feedNotFound: 'Alert product not found.',
  notSubscribed: 'You do not have access to these alerts.',
  symbol: `Enter a symbol of up to ${ALERT_SYMBOL_MAX} letters, digits or . : / - _ ! characters.`,
  side: 'Choose buy, sell or close (long, short and exit are read as these).',
  price: 'Enter the price as a number, e.g. 4215.5.',
  text: `Enter the alert's text, up to ${ALERT_TEXT_MAX} characters.`,
  empty: 'An alert needs a symbol or a text.',
  alertId: `An alert id is up to ${ALERT_ID_MAX} characters.`,
  badBody:
    'Send the alert as plain text, or as JSON with any of symbol (or ticker), side (or action), price (or close), text (or message) and id.',
  badJson:
    'The body is not valid JSON. Send plain text with Content-Type text/plain, or valid JSON.',
  badSecret: 'This alert webhook URL is not valid. Copy it again from the workspace.',
  flood: 'Too many alerts to this feed; wait a minute.',
  webhookUrl: 'Enter the full URL of your endpoint, starting with https://.',
  webhookRefused:
    'That address is private or local. Alerts can only be sent to public internet addresses.',
  webhookUnresolved: 'We could not look that host name up. Check the URL.',
  webhookHttps: 'Webhook URLs must start with https://.',
  noWebhook: 'Set a webhook URL first.',
  webhookPaused: 'Paused after repeated failures: fix your endpoint, then press Retry.',
  discordNotBound:
    'Bind this alert product to a role of your Discord server first (Delivery → Discord): the channel is readable by that role only.',
  discordChannelId: 'Enter the channel id (right-click the channel in Discord → Copy Channel ID).',
  discordDown: 'Discord is not answering right now. Try again in a minute.',
  discordNoChannel: 'This feed has no Discord channel.',
  discordOff: 'Not posted: the feed has no Discord channel any more.',
  published: 'Alert sent.',
  duplicate: 'This alert was already sent (same id); it was not sent again.',
} as const;
