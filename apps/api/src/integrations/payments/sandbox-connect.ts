import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { hmac, newId, safeEqual } from '../../lib.ts';
import type { ConnectAccountStatus } from './port.ts';
import { disabledReasonSentence, requirementSentences } from './requirements.ts';
import { sandboxConnectAccounts } from './tables.ts';

export type SandboxConnectAccount = typeof sandboxConnectAccounts.$inferSelect;
export type SandboxConnectState = SandboxConnectAccount['state'];

/** What a new account owes, named as Stripe names it; the onboarding page asks for each. */
const NEW_ACCOUNT_DUE = [
  'business_profile.name',
  'individual.address.country',
  'external_account',
  'tos_acceptance.date',
];
const LINK_MINUTES = 60;

/** The link a vendor follows into the sandbox's onboarding page and back. */
export interface ConnectLink {
  accountId: string;
  returnUrl: string;
  refreshUrl: string;
}

/**
 * The sandbox's Connect accounts (ADR 041): created `new` (details due), the onboarding page
 * (`sandbox-connect-routes.ts`) submits them, and they are `active` at once or after a sandbox
 * "verify" step, so every state the workspace shows can be reached by hand.
 */
export class SandboxConnect {
  constructor(
    private readonly db: Db,
    private readonly secret: string,
  ) {}

  async createOnboarding(req: {
    accountId: string | null;
    email: string;
    refreshUrl: string;
    returnUrl: string;
  }): Promise<{ accountId: string; url: string }> {
    const accountId = req.accountId ?? newId('acct_sbx');
    // The page sends the browser back where the latest link said (kept here, so links stay short).
    await this.db
      .insert(sandboxConnectAccounts)
      .values({
        id: accountId,
        email: req.email,
        returnUrl: req.returnUrl,
        refreshUrl: req.refreshUrl,
        // An account made before the sandbox kept state (the demo's) was ready from the start.
        state: req.accountId ? 'active' : 'new',
      })
      .onConflictDoUpdate({
        target: sandboxConnectAccounts.id,
        set: { returnUrl: req.returnUrl, refreshUrl: req.refreshUrl, updatedAt: sql`now()` },
      });
    return {
      accountId,
      url: new URL(`/sandbox/connect/${this.sign(accountId)}`, req.returnUrl).toString(),
    };
  }

  /** An onboarding link names its account, signed; it expires in an hour. */
  sign(accountId: string): string {
    const payload = `${accountId}.${(Date.now() + LINK_MINUTES * 60_000).toString(36)}`;
    return `${payload}.${hmac(this.secret, `connect:${payload}`).slice(0, 32)}`;
  }

  /** The account and return addresses a link stands for, or null when forged, expired or unknown. */
  async verify(token: string): Promise<ConnectLink | null> {
    const [accountId, expires, mac] = token.split('.');
    if (!accountId || !expires || !mac) return null;
    const expected = hmac(this.secret, `connect:${accountId}.${expires}`).slice(0, 32);
    if (!safeEqual(mac, expected) || parseInt(expires, 36) <= Date.now()) return null;
    const row = await this.account(accountId);
    return row ? { accountId, returnUrl: row.returnUrl, refreshUrl: row.refreshUrl } : null;
  }

  async account(id: string): Promise<SandboxConnectAccount | null> {
    const [row] = await this.db
      .select()
      .from(sandboxConnectAccounts)
      .where(eq(sandboxConnectAccounts.id, id));
    return row ?? null;
  }

  async setState(id: string, state: SandboxConnectState, businessName?: string): Promise<void> {
    await this.db
      .update(sandboxConnectAccounts)
      .set({ state, ...(businessName ? { businessName } : {}), updatedAt: sql`now()` })
      .where(eq(sandboxConnectAccounts.id, id));
  }

  async status(accountId: string): Promise<ConnectAccountStatus> {
    const row = await this.account(accountId);
    // Accounts from before the sandbox kept state (the demo's) were ready from the start.
    const state: SandboxConnectState = row?.state ?? 'active';
    const disabledCode =
      state === 'new'
        ? 'requirements.past_due'
        : state === 'pending_verification'
          ? 'requirements.pending_verification'
          : state === 'restricted'
            ? 'rejected.other'
            : null;
    const due = state === 'new' ? NEW_ACCOUNT_DUE : [];
    return {
      chargesEnabled: state === 'active',
      payoutsEnabled: state === 'active',
      detailsSubmitted: state !== 'new',
      requirements: requirementSentences(due),
      disabledCode,
      disabledReason: disabledReasonSentence(disabledCode),
    };
  }
}
