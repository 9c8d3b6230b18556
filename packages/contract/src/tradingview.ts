import { z } from 'zod';
import { idSchema, isoDateTime, pageQuery } from './common.ts';
import {
  TRADINGVIEW_SCRIPT_NAME_MAX,
  TRADINGVIEW_SCRIPT_URL_MAX,
  TRADINGVIEW_SCRIPTS_PER_PRODUCT_MAX,
  TRADINGVIEW_TASK_NOTE_MAX,
  TRADINGVIEW_USERNAME_INPUT_MAX,
  tradingViewAccessStatuses,
  tradingViewMessages as m,
  tradingViewScriptUrlPattern,
  tradingViewTaskKinds,
  tradingViewTaskStatuses,
  tradingViewUsernameMessages,
  validateTradingViewUsername,
} from './constants/tradingview.ts';
import { defineRoute } from './route.ts';
import { hasUnreadableCharacters } from './rules/text.ts';

export * from './constants/tradingview.ts';

/** As typed: `@name` and a profile link are accepted and read down to the name by the server. */
export const tradingViewUsernameSchema = z
  .string({ error: tradingViewUsernameMessages.required })
  .max(TRADINGVIEW_USERNAME_INPUT_MAX, tradingViewUsernameMessages.length)
  .superRefine((value, ctx) => {
    const problem = validateTradingViewUsername(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ examples: ['AlphaTrader_88'] });

export const tradingViewScript = z.object({
  id: z.string(),
  name: z.string(),
  /** The script's page on TradingView, where the vendor manages who may use it. */
  url: z.string(),
});
export type TradingViewScript = z.infer<typeof tradingViewScript>;

const productRef = z.object({ id: z.string(), slug: z.string(), title: z.string() });
const vendorRef = z.object({ vendorUrl: z.string(), displayName: z.string() });

/** The buyer's TradingView username (null until given) and when it last changed. */
export const tradingViewAccount = z.object({
  username: z.string().nullable(),
  changedAt: isoDateTime.nullable(),
});
export type TradingViewAccount = z.infer<typeof tradingViewAccount>;

/** One product of the buyer that delivers TradingView scripts, and where that access stands. */
export const tradingViewAccessItem = z.object({
  /** The entitlement behind it. */
  id: z.string(),
  purchaseId: z.string(),
  product: productRef,
  vendor: vendorRef,
  scripts: z.array(tradingViewScript),
  /** The name access is (being) given to; null while the buyer has not given one. */
  username: z.string().nullable(),
  status: z.enum(tradingViewAccessStatuses),
  /** In words: "Waiting for Alpha Edge Labs to add you on TradingView", "Active until …". */
  message: z.string(),
  /** When access ends (a cancelled subscription's paid period); null while it runs on. */
  endsAt: isoDateTime.nullable(),
  endedReason: z.string().nullable(),
});
export type TradingViewAccessItem = z.infer<typeof tradingViewAccessItem>;

export const tradingViewAccessResponse = z.object({
  tradingview: tradingViewAccount,
  access: z.array(tradingViewAccessItem),
});
export type TradingViewAccessResponse = z.infer<typeof tradingViewAccessResponse>;

export const setTradingViewUsernameBody = z.object({ username: tradingViewUsernameSchema });

/** A task in the vendor's access queue: give or take a username's access to scripts. */
export const tradingViewTask = z.object({
  id: z.string(),
  kind: z.enum(tradingViewTaskKinds),
  status: z.enum(tradingViewTaskStatuses),
  username: z.string(),
  scripts: z.array(tradingViewScript),
  product: z.object({ id: z.string(), title: z.string() }),
  purchaseId: z.string(),
  /** For a grant: the expiry to set on TradingView (a cancelled subscription's end); null: none. */
  expiresAt: isoDateTime.nullable(),
  reason: z.string(),
  /** The reason in words. */
  reasonText: z.string(),
  createdAt: isoDateTime,
  /** For a revocation: when it is overdue (the vendor is reminded once after). */
  dueAt: isoDateTime.nullable(),
  overdue: z.boolean(),
  completedAt: isoDateTime.nullable(),
  note: z.string().nullable(),
});
export type TradingViewTask = z.infer<typeof tradingViewTask>;

export const tradingViewTasksQuery = pageQuery.extend({
  status: z.enum([...tradingViewTaskStatuses, 'all']).default('pending'),
});

export const taskParams = z.object({ id: idSchema });

export const completeTaskBody = z.object({
  note: z
    .string()
    .trim()
    .max(TRADINGVIEW_TASK_NOTE_MAX, `At most ${TRADINGVIEW_TASK_NOTE_MAX} characters.`)
    .refine((v) => !hasUnreadableCharacters(v, true), {
      error: 'Use letters, digits and punctuation.',
    })
    .optional(),
});

export const vendorScript = tradingViewScript.extend({
  products: z.array(z.object({ id: z.string(), title: z.string() })),
  createdAt: isoDateTime,
});
export type VendorTradingViewScript = z.infer<typeof vendorScript>;

export const createScriptBody = z.object({
  name: z
    .string({ error: m.scriptName })
    .trim()
    .min(1, m.scriptName)
    .max(TRADINGVIEW_SCRIPT_NAME_MAX, `At most ${TRADINGVIEW_SCRIPT_NAME_MAX} characters.`)
    .refine((v) => !hasUnreadableCharacters(v), { error: 'Use letters, digits and punctuation.' })
    .meta({ examples: ['RSI Divergence Pro'] }),
  url: z
    .string({ error: m.scriptUrl })
    .trim()
    .max(TRADINGVIEW_SCRIPT_URL_MAX, m.scriptUrl)
    .regex(tradingViewScriptUrlPattern, m.scriptUrl)
    .meta({ examples: ['https://www.tradingview.com/script/AbCd1234-RSI-Divergence-Pro/'] }),
});

export const productScriptsParams = z.object({ id: idSchema });
export const setProductScriptsBody = z.object({
  scriptIds: z
    .array(idSchema)
    .max(
      TRADINGVIEW_SCRIPTS_PER_PRODUCT_MAX,
      `A product delivers at most ${TRADINGVIEW_SCRIPTS_PER_PRODUCT_MAX} scripts.`,
    ),
});

/** One of the vendor's products and the scripts it delivers (none for most). */
export const vendorTradingViewProduct = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.string(),
  isActive: z.boolean(),
  scripts: z.array(tradingViewScript),
});
export type VendorTradingViewProduct = z.infer<typeof vendorTradingViewProduct>;

export const tradingviewRoutes = {
  userTradingView: defineRoute({
    method: 'GET',
    path: '/api/v1/user/tradingview',
    auth: 'bearer',
    summary: 'The TradingView username the buyer gave (null until given).',
    tags: ['tradingview'],
    status: 200,
    response: z.object({ tradingview: tradingViewAccount }),
  }),
  setTradingViewUsername: defineRoute({
    method: 'PUT',
    path: '/api/v1/user/tradingview',
    auth: 'bearer',
    summary:
      'Sets the buyer’s TradingView username (`@name` and profile links are read down to the name). A new name moves every grant: the old name’s access is revoked and the new one granted (a grant not yet done is cancelled instead). Answers the access as it now stands.',
    tags: ['tradingview'],
    status: 200,
    body: setTradingViewUsernameBody,
    response: tradingViewAccessResponse,
  }),
  userTradingViewAccess: defineRoute({
    method: 'GET',
    path: '/api/v1/user/tradingview/access',
    auth: 'bearer',
    summary:
      'The buyer’s products that deliver TradingView invite-only scripts, each with where access stands, in words.',
    tags: ['tradingview'],
    status: 200,
    response: tradingViewAccessResponse,
  }),
  productTradingViewScripts: defineRoute({
    method: 'GET',
    path: '/api/v1/tradingview/products/{id}',
    auth: 'none',
    summary:
      'The TradingView invite-only scripts a product delivers (none for most products): the product page asks for the username when there are some.',
    tags: ['tradingview'],
    status: 200,
    params: productScriptsParams,
    response: z.object({ scripts: z.array(tradingViewScript) }),
  }),
  vendorTradingViewTasks: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/tradingview/tasks',
    auth: 'bearer',
    summary:
      'The vendor’s TradingView access queue, oldest first: usernames to add to or remove from scripts, with the expiry to set. `status` filters (default pending).',
    tags: ['tradingview'],
    status: 200,
    query: tradingViewTasksQuery,
    response: z.object({ tasks: z.array(tradingViewTask), nextCursor: z.string().nullable() }),
  }),
  completeTradingViewTask: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/tradingview/tasks/{id}/complete',
    auth: 'bearer',
    summary:
      'Marks a task done once the vendor changed the access on TradingView. Completing it again changes nothing; a cancelled task answers 409.',
    tags: ['tradingview'],
    status: 200,
    params: taskParams,
    body: completeTaskBody,
    response: z.object({ task: tradingViewTask }),
  }),
  vendorTradingViewScripts: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/tradingview/scripts',
    auth: 'bearer',
    summary: 'The vendor’s invite-only scripts and the products that deliver each.',
    tags: ['tradingview'],
    status: 200,
    response: z.object({ scripts: z.array(vendorScript) }),
  }),
  createTradingViewScript: defineRoute({
    method: 'POST',
    path: '/api/v1/vendor/tradingview/scripts',
    auth: 'bearer',
    summary: 'Adds one of the vendor’s invite-only scripts by its TradingView link.',
    tags: ['tradingview'],
    status: 201,
    body: createScriptBody,
    response: z.object({ script: vendorScript }),
  }),
  setProductTradingViewScripts: defineRoute({
    method: 'PUT',
    path: '/api/v1/vendor/tradingview/products/{id}/scripts',
    auth: 'bearer',
    summary:
      'Sets which of the vendor’s scripts a product delivers. Buyers who hold the product get grant or revocation tasks for the difference.',
    tags: ['tradingview'],
    status: 200,
    params: productScriptsParams,
    body: setProductScriptsBody,
    response: z.object({
      product: z.object({ id: z.string(), scripts: z.array(tradingViewScript) }),
    }),
  }),
  vendorTradingViewProducts: defineRoute({
    method: 'GET',
    path: '/api/v1/vendor/tradingview/products',
    auth: 'bearer',
    summary:
      'The vendor’s products by title, each with the scripts it delivers, a page at a time (to choose which products deliver which scripts).',
    tags: ['tradingview'],
    status: 200,
    query: pageQuery,
    response: z.object({
      products: z.array(vendorTradingViewProduct),
      nextCursor: z.string().nullable(),
    }),
  }),
} as const;
