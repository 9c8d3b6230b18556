// The discord feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { discordAuthCall, discordUnlinkCall, userDiscordCall } from './actions.ts';
