import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { products, vendorColumn } from '../catalog/tables.ts';
import { purchases } from '../orders/tables.ts';
import { userColumn, users } from '../users/tables.ts';
import { idColumn, refColumn, ts } from '../../db/columns.ts';

/**
 * What a purchase granted: product access, course enrolment, a licence to issue, a Discord role.
 * The access module keeps them from orders' events (ADR 028); delivery jobs perform the outside part.
 */
export const entitlements = pgTable(
  'entitlements',
  {
    id: idColumn(),
    purchaseId: refColumn('purchase_id', () => purchases.id),
    userId: userColumn(),
    productId: refColumn('product_id', () => products.id, 'restrict'),
    kind: text('kind', {
      enum: ['access', 'course_enrolment', 'licence', 'discord_role'],
    }).notNull(),
    status: text('status', { enum: ['active', 'ended'] })
      .notNull()
      .default('active'),
    endsAt: ts('ends_at'),
    endedReason: text('ended_reason'),
    performedAt: ts('performed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('entitlements_purchase_product_kind_key').on(t.purchaseId, t.productId, t.kind),
    // The export reads a library a page at a time in this order (ADR 060); user lookups use its prefix.
    index('entitlements_user_created_idx').on(t.userId, t.createdAt, t.id),
  ],
);

/** The Discord account a user linked (one Discord account belongs to one user at a time). */
export const discordLinks = pgTable(
  'discord_links',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    discordUserId: text('discord_user_id').notNull(),
    username: text('username').notNull(),
    globalName: text('global_name'),
    avatarUrl: text('avatar_url'),
    scopes: text('scopes').array().notNull(),
    /** Sealed with AES-256-GCM (`platform/seal.ts`): needed only to add the user to servers. */
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    tokenExpiresAt: ts('token_expires_at'),
    linkedAt: ts('linked_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('discord_links_discord_user_key').on(t.discordUserId)],
);

/** A signed OAuth2 `state` is also recorded, so it is single-use and bound to its user. */
export const discordOauthStates = pgTable('discord_oauth_states', {
  nonce: text('nonce').primaryKey(),
  userId: userColumn(),
  purpose: text('purpose', { enum: ['link', 'install'] }).notNull(),
  vendorUrl: text('vendor_url'),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

/** Servers a vendor added the bot to. */
export const vendorDiscordServers = pgTable(
  'vendor_discord_servers',
  {
    vendorId: vendorColumn(),
    guildId: text('guild_id').notNull(),
    name: text('name').notNull(),
    iconUrl: text('icon_url'),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  // One vendor per server (ADR 047): a server held by two could be bound by either.
  (t) => [
    primaryKey({ columns: [t.vendorId, t.guildId] }),
    uniqueIndex('vendor_discord_servers_guild_key').on(t.guildId),
  ],
);

/** A community product's server and the roles its buyers get. */
export const communityBindings = pgTable(
  'community_bindings',
  {
    productId: text('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    vendorId: vendorColumn(),
    guildId: text('guild_id').notNull(),
    guildName: text('guild_name').notNull(),
    guildIconUrl: text('guild_icon_url'),
    /** `[{ id, name }]` */
    roles: jsonb('roles').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('community_bindings_guild_idx').on(t.guildId)],
);

/** Where delivering an entitlement stands (the health a buyer sees). */
export const accessDeliveries = pgTable(
  'access_deliveries',
  {
    entitlementId: text('entitlement_id')
      .primaryKey()
      .references(() => entitlements.id, { onDelete: 'cascade' }),
    userId: userColumn(),
    state: text('state', {
      enum: ['granting', 'active', 'needs_link', 'needs_join', 'failing', 'ended'],
    }).notNull(),
    reason: text('reason'),
    nextRetryAt: ts('next_retry_at'),
    attempts: integer('attempts').notNull().default(0),
    inviteUrl: text('invite_url'),
    inviteExpiresAt: ts('invite_expires_at'),
    checkedAt: ts('checked_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('access_deliveries_user_idx').on(t.userId)],
);

/** What happened to an entitlement's delivery, for buyers, vendors and support. */
export const accessEvents = pgTable(
  'access_events',
  {
    id: idColumn(),
    entitlementId: refColumn('entitlement_id', () => entitlements.id),
    type: text('type', {
      enum: ['granted', 'revoked', 'repaired', 'failed', 'needs_buyer'],
    }).notNull(),
    detail: text('detail').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('access_events_entitlement_idx').on(t.entitlementId, t.at)],
);
