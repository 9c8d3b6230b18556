import type { LoginResponse, RefreshResponse } from '@tradeshelf/contract';

/** The session record (docs/product.md#sessions), kept in local storage under `tokens`; the access token also under `token`. */
export interface SessionRecord {
  userId: string;
  userEmail: string;
  accessToken: string;
  accessTokenExpiry: number;
  refreshToken: string;
  refreshTokenExpiry: number;
  emailVerified: boolean;
}

export const TOKENS_KEY = 'tokens';
export const TOKEN_KEY = 'token';
/** docs/product.md#sessions: a login is stored after this delay. */
export const SESSION_STORE_DELAY_MS = 5000;
/** An access token this close to its expiry is refreshed before use rather than sent. */
export const REFRESH_SKEW_MS = 30_000;
const MINUTE = 60_000;

/** docs/product.md#verification-grace: an unverified e-mail with one day or less left is not signed in. */
export function blockedByGrace(
  res: Pick<LoginResponse, 'emailVerified' | 'verificationDaysRemaining'>,
): boolean {
  return !res.emailVerified && res.verificationDaysRemaining <= 1;
}

/** Access expiry = validity (seconds) × 1000; refresh expiry one minute before its stated validity (minutes). */
export function recordFromLogin(res: LoginResponse, now: number): SessionRecord {
  return {
    userId: res.id,
    userEmail: res.email,
    accessToken: res.token,
    accessTokenExpiry: now + res.accessTokenValidity * 1000,
    refreshToken: res.refreshToken,
    refreshTokenExpiry: now + (res.refreshTokenValidity - 1) * MINUTE,
    emailVerified: res.emailVerified,
  };
}

/**
 * A change-password answer carries a fresh pair in the login units (access seconds, refresh
 * minutes): it replaces the tokens of the stored record and keeps who the user is.
 */
export function recordWithNewPair(
  prev: SessionRecord,
  res: Pick<
    LoginResponse,
    'token' | 'accessTokenValidity' | 'refreshToken' | 'refreshTokenValidity'
  >,
  now: number,
): SessionRecord {
  return {
    ...prev,
    accessToken: res.token,
    accessTokenExpiry: now + res.accessTokenValidity * 1000,
    refreshToken: res.refreshToken,
    refreshTokenExpiry: now + (res.refreshTokenValidity - 1) * MINUTE,
  };
}

/** Both validities of a refresh answer are minutes; both expiries are set one minute early. */
export function recordFromRefresh(
  prev: SessionRecord,
  res: RefreshResponse,
  now: number,
): SessionRecord {
  return {
    ...prev,
    accessToken: res.authentication_token,
    accessTokenExpiry: now + (res.access_token_validity - 1) * MINUTE,
    refreshToken: res.refresh_token,
    refreshTokenExpiry: now + (res.refresh_token_validity - 1) * MINUTE,
  };
}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Storage that lives as long as the page: the server's, and tests' (which read `data`). */
export const memoryStorage = (): KeyValueStorage & { data: Map<string, string> } => {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
};

export interface SessionDeps {
  storage: KeyValueStorage;
  now: () => number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  /** Calls POST /refresh_token; rejects when the server refuses. */
  refresh: (record: SessionRecord) => Promise<RefreshResponse>;
}

export type SessionEvent = { type: 'stored'; record: SessionRecord } | { type: 'cleared' };

function isRecord(v: unknown): v is SessionRecord {
  if (!v || typeof v !== 'object') return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.userId === 'string' &&
    typeof r.userEmail === 'string' &&
    typeof r.accessToken === 'string' &&
    typeof r.accessTokenExpiry === 'number' &&
    typeof r.refreshToken === 'string' &&
    typeof r.refreshTokenExpiry === 'number' &&
    typeof r.emailVerified === 'boolean'
  );
}

/** The session as docs/product.md#sessions and #tokens define it: storage, timing, expiry and single-flight refresh. */
export class SessionStore {
  private pending: unknown = null;
  private pendingLogin: LoginResponse | null = null;
  private refreshing: Promise<SessionRecord | null> | null = null;
  private readonly listeners = new Set<(e: SessionEvent) => void>();

  constructor(private readonly deps: SessionDeps) {}

  subscribe(listener: (e: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: SessionEvent) {
    for (const l of this.listeners) l(e);
  }

  /** The stored record as it is, expired or not (null when absent or malformed). */
  peek(): SessionRecord | null {
    const raw = this.deps.storage.getItem(TOKENS_KEY);
    if (!raw) return null;
    try {
      const parsed: unknown = JSON.parse(raw);
      return isRecord(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }

  write(record: SessionRecord): void {
    this.deps.storage.setItem(TOKENS_KEY, JSON.stringify(record));
    this.deps.storage.setItem(TOKEN_KEY, record.accessToken);
    this.emit({ type: 'stored', record });
  }

  /** Logs out: drops the stored session and any login still waiting out its delay. */
  clear(): void {
    this.cancelPending();
    this.drop();
  }

  /** Removes the stored session (both keys); emits `cleared` when there was one. */
  private drop(): void {
    const had =
      this.deps.storage.getItem(TOKENS_KEY) !== null ||
      this.deps.storage.getItem(TOKEN_KEY) !== null;
    this.deps.storage.removeItem(TOKENS_KEY);
    this.deps.storage.removeItem(TOKEN_KEY);
    if (had) this.emit({ type: 'cleared' });
  }

  /**
   * Applies a login answer: blocked by the grace rule → nothing is stored ('blocked'); otherwise the
   * record is stored after SESSION_STORE_DELAY_MS and `stored` is emitted then ('scheduled').
   */
  acceptLogin(res: LoginResponse): 'blocked' | 'scheduled' {
    if (blockedByGrace(res)) return 'blocked';
    this.cancelPending();
    this.pendingLogin = res;
    this.pending = this.deps.setTimer(() => {
      const answer = this.pendingLogin ?? res;
      this.pending = null;
      this.pendingLogin = null;
      this.write(recordFromLogin(answer, this.deps.now()));
    }, SESSION_STORE_DELAY_MS);
    return 'scheduled';
  }

  /** The login answer waiting out the delay, if any (e.g. to prefill the activation e-mail). */
  pendingAnswer(): LoginResponse | null {
    return this.pendingLogin;
  }

  cancelPending(): void {
    if (this.pending !== null) this.deps.clearTimer(this.pending);
    this.pending = null;
    this.pendingLogin = null;
  }

  /** True while the record's access token can be sent as it is (unexpired, not about to expire). */
  isFresh(record: SessionRecord): boolean {
    return record.accessTokenExpiry - REFRESH_SKEW_MS > this.deps.now();
  }

  /**
   * A usable session: the stored one while its access token is unexpired; otherwise a refreshed one
   * while the refresh token is; otherwise the session is cleared and the user is logged out (null).
   */
  async current(): Promise<SessionRecord | null> {
    const record = this.peek();
    if (!record) {
      // A malformed record, or a lone `token` without `tokens`, is no session.
      this.drop();
      return null;
    }
    if (this.isFresh(record)) return record;
    return this.refresh();
  }

  /** One refresh at a time: concurrent callers share it. A failed refresh clears the session. */
  refresh(): Promise<SessionRecord | null> {
    if (this.refreshing) return this.refreshing;
    const record = this.peek();
    if (!record || record.refreshTokenExpiry <= this.deps.now()) {
      this.drop();
      return Promise.resolve(null);
    }
    this.refreshing = this.deps
      .refresh(record)
      .then((res) => {
        // A logout or another login while the refresh was in flight wins over its answer.
        if (this.peek()?.refreshToken !== record.refreshToken) return null;
        const next = recordFromRefresh(record, res, this.deps.now());
        this.write(next);
        return next;
      })
      .catch(() => {
        this.drop();
        return null;
      })
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  /** Replaces the stored tokens with a new pair (change password); false when nothing is stored. */
  replaceTokens(res: Parameters<typeof recordWithNewPair>[1]): boolean {
    const record = this.peek();
    if (!record) return false;
    this.write(recordWithNewPair(record, res, this.deps.now()));
    return true;
  }

  /** Marks the e-mail verified (after activation), in the stored record and in a pending login. */
  markVerified(email: string): void {
    const same = (a: string) => a.toLowerCase() === email.trim().toLowerCase();
    if (this.pendingLogin && same(this.pendingLogin.email))
      this.pendingLogin = {
        ...this.pendingLogin,
        emailVerified: true,
        verificationDaysRemaining: 0,
      };
    const record = this.peek();
    if (record && same(record.userEmail) && !record.emailVerified)
      this.write({ ...record, emailVerified: true });
  }
}
