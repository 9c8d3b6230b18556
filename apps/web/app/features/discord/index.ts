// The discord feature's public entry: other features import this file only (docs/architecture.md#boundaries).
export { completeDiscordAuth, fetchUserDiscord, unlinkDiscord } from './api.ts';
