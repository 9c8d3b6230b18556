/** What a buyer's access stands at (the library shows each in words). */
export const accessHealthStatuses = [
  'active',
  'granting',
  'needs_link',
  'needs_join',
  'failing',
  'ended',
] as const;
export type AccessHealthStatus = (typeof accessHealthStatuses)[number];

export const DISCORD_OAUTH_CODE_MAX = 256;
export const DISCORD_STATE_MAX = 512;

/** What the library, the callback page and the API say. */
export const discordMessages = {
  connect: 'Connect Discord to get access.',
  join: 'Join the server to get your roles.',
  granting: 'Giving you access…',
  active: 'You have access.',
  notBound: 'The vendor is setting this community up. Access starts as soon as they finish.',
  stateInvalid: 'This sign-in link is not valid. Start again from your library.',
  stateExpired: 'This sign-in link expired. Start again from your library.',
  stateUsed: 'This sign-in link was already used. Start again from your library.',
  // The same, for a vendor adding the bot (the workspace's Discord page starts it again).
  installStateInvalid: 'This install link is not valid. Add the bot again from the Discord page.',
  installStateExpired: 'This install link expired. Add the bot again from the Discord page.',
  installStateUsed: 'This install link was already used. Add the bot again from the Discord page.',
  codeInvalid: 'Discord did not accept the sign-in (the code expired or was used). Try again.',
  linkedElsewhere:
    'This Discord account is linked to another Tradeshelf account. Unlink it there first.',
  notLinked: 'No Discord account is linked.',
  communityNotFound: 'Community not found.',
  discordDown: 'Discord is not answering. We will retry; try again in a minute.',
  vendorsOnly: 'Only vendors can connect servers.',
  productNotYours: 'Choose one of your community or alert products.',
  serverUnknown: 'The bot is not in that server. Add it with the install link first.',
  installCodeInvalid:
    'Discord did not confirm adding the bot (the link expired or was used). Add the bot again.',
  serverTaken:
    'Another vendor already delivers through this Discord server. Ask its owner, or contact support if it is yours.',
  bindingNotFound: 'This product is not bound to a server.',
  badCursor: 'That page has expired. Reload the list.',
} as const;
