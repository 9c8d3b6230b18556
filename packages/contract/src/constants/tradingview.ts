/**
 * TradingView invite-only scripts (issue 17, ADR 034): the username rule, script links, statuses and
 * the words the library and the vendor's queue use. Plain values and pure functions, no zod, so the
 * web app's forms run the same rule as the server.
 */

export const TRADINGVIEW_USERNAME_MIN = 3;
export const TRADINGVIEW_USERNAME_MAX = 30;
/** Room for a pasted profile link, which is read down to the name. */
export const TRADINGVIEW_USERNAME_INPUT_MAX = 200;

export const tradingViewUsernameMessages = {
  required: 'Enter your TradingView username.',
  characters:
    'Use the @username from your TradingView profile: letters, digits, _ . or - and no spaces.',
  length: `A TradingView username is ${TRADINGVIEW_USERNAME_MIN} to ${TRADINGVIEW_USERNAME_MAX} characters.`,
  start: 'A TradingView username starts with a letter or a digit.',
} as const;

const profileLink =
  /^(?:https?:\/\/)?(?:[\w-]+\.)?tradingview\.com\/u\/([^/?#\s]+)\/?(?:[?#]\S*)?$/i;

/**
 * What people type or paste, read down to the name: spaces around it, a leading `@` and a profile
 * link (`https://www.tradingview.com/u/AlphaTrader/`) are dropped. TradingView matches names
 * without regard to case; the case typed is kept for the vendor to copy.
 */
export function normaliseTradingViewUsername(input: string): string {
  const trimmed = input.trim();
  const name = profileLink.exec(trimmed)?.[1] ?? trimmed;
  return name.startsWith('@') ? name.slice(1) : name;
}

/** What is wrong with a TradingView username, in words; null when it fits. */
export function validateTradingViewUsername(input: string): string | null {
  const name = normaliseTradingViewUsername(input);
  const m = tradingViewUsernameMessages;
  if (!name) return m.required;
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) return m.characters;
  if (name.length < TRADINGVIEW_USERNAME_MIN || name.length > TRADINGVIEW_USERNAME_MAX)
    return m.length;
  if (!/^[A-Za-z0-9]/.test(name)) return m.start;
  return null;
}

/** An invite-only script's page: `https://www.tradingview.com/script/<8 characters>-<slug>/`. */
export const tradingViewScriptUrlPattern =
  /^https:\/\/(?:[\w-]+\.)?tradingview\.com\/script\/[A-Za-z0-9]{8}(?:-[^\s/?#]*)?\/?$/;
export const TRADINGVIEW_SCRIPT_URL_MAX = 300;
export const TRADINGVIEW_SCRIPT_NAME_MAX = 100;
/** Scripts one product may deliver. */
export const TRADINGVIEW_SCRIPTS_PER_PRODUCT_MAX = 20;
export const TRADINGVIEW_TASK_NOTE_MAX = 500;

/** Where a buyer's access to a product's scripts stands. */
export const tradingViewAccessStatuses = ['needs_username', 'waiting', 'active', 'ended'] as const;
export type TradingViewAccessStatus = (typeof tradingViewAccessStatuses)[number];

export const tradingViewTaskKinds = ['grant', 'revoke'] as const;
export type TradingViewTaskKind = (typeof tradingViewTaskKinds)[number];
/** `cancelled`: no longer needed before anyone did it (a refund before the grant, a new name). */
export const tradingViewTaskStatuses = ['pending', 'done', 'cancelled'] as const;
export type TradingViewTaskStatus = (typeof tradingViewTaskStatuses)[number];

/** Why an entitlement ended, as the library says it after "Ended: ". */
export const tradingViewEndedWords: Record<string, string> = {
  refunded: 'refunded',
  disputed: 'payment disputed',
  subscription_ended: 'subscription ended',
  revoked: 'revoked by the vendor',
};

/** Why a task exists, for the vendor. */
export const tradingViewTaskReasonWords: Record<string, string> = {
  new_access: 'New buyer',
  username_changed: 'The buyer changed their TradingView username',
  scripts_changed: 'The product’s scripts changed',
  refunded: 'The purchase was refunded',
  disputed: 'The payment was disputed',
  subscription_ended: 'The subscription ended',
  revoked: 'You revoked the purchase',
  ended: 'Access ended',
};

export const tradingViewMessages = {
  needsUsername: 'Add your TradingView username to get access',
  waiting: (vendor: string) => `Waiting for ${vendor} to add you on TradingView`,
  active: 'Active',
  activeUntil: (date: string) => `Active until ${date}`,
  ended: (reason: string | null) =>
    `Ended: ${reason ? (tradingViewEndedWords[reason] ?? reason.replace(/_/g, ' ')) : 'access ended'}`,
  vendorsOnly: 'Only vendors have a TradingView access queue.',
  taskNotFound: 'Task not found.',
  taskCancelled:
    'This task was cancelled: the buyer no longer needs it. If you already did it on TradingView, undo it there.',
  scriptNotFound: 'Script not found.',
  scriptTaken: 'You already added this script.',
  productNotYours: 'Choose one of your products.',
  scriptUrl:
    'Paste the script’s TradingView link, like https://www.tradingview.com/script/AbCd1234-My-Script/.',
  scriptName: 'Name the script as buyers see it on TradingView.',
} as const;

/** The library's words for a status; `formatDate` writes dates the way the rest of the app does. */
export function tradingViewStatusText(
  s: {
    status: TradingViewAccessStatus;
    vendorName: string;
    endsAt: string | null;
    endedReason: string | null;
  },
  formatDate: (iso: string) => string,
): string {
  const m = tradingViewMessages;
  switch (s.status) {
    case 'needs_username':
      return m.needsUsername;
    case 'waiting':
      return m.waiting(s.vendorName);
    case 'active':
      return s.endsAt ? m.activeUntil(formatDate(s.endsAt)) : m.active;
    case 'ended':
      return m.ended(s.endedReason);
  }
}
