// The discord feature's public entry: other features import this file only (ARCHITECTURE §2).
export { completeDiscordAuth, fetchUserDiscord, unlinkDiscord } from './api.ts';
export { useConnectDiscord } from './hooks.ts';
