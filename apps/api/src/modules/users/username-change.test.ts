import {
  accountMessages,
  accountRoutes,
  authRoutes,
  usernameMessages,
  usersMessages,
  usersRoutes,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories/users.ts';
import { useTestApp } from '../../../test/harness.ts';

/** Issue 33, ADR 058: changing a chosen username, holds on given-up names, the change limit. */

const t = useTestApp();

let seq = 0;
/** A name no other test uses: letters and digits, within the rule's 15. */
const uniqueName = (stem: string) => `${stem}${Date.now() % 1_000_000}${++seq}`;

async function signedIn(username: string | null = null) {
  const user = await createUser(t, { username });
  const res = await t.call(authRoutes.login, {
    body: { email: user.email, password: user.password },
  });
  return { user, token: res.json().token as string };
}
const rename = (token: string, username: string) =>
  t.call(usersRoutes.updateProfile, { token, body: { username } });
const settingsOf = async (token: string) =>
  (await t.call(accountRoutes.accountSettings, { token })).json();

describe('changing the username', () => {
  it('keeps the username rules and their messages', async () => {
    const { token } = await signedIn(uniqueName('rules'));
    for (const [name, message] of [
      ['abc', usernameMessages.length],
      ['ab__cd', usernameMessages.consecutiveUnderscores],
      ['bad-name', usernameMessages.invalid],
      ['Support', usernameMessages.reserved],
    ] as const) {
      const res = await rename(token, name);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: message, fields: { username: message } });
    }
  });

  it('allows a change once per 30 days; choosing the first name does not count', async () => {
    const { user, token } = await signedIn();
    const first = uniqueName('first');
    expect((await rename(token, first)).statusCode).toBe(200);
    expect((await settingsOf(token)).usernameChangeableFrom).toBeNull();
    const second = uniqueName('second');
    const changed = await rename(token, second);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().user.username).toBe(second);

    const from = (await settingsOf(token)).usernameChangeableFrom as string;
    expect(Date.parse(from) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const tooSoon = await rename(token, uniqueName('third'));
    expect(tooSoon.statusCode).toBe(422);
    const message = accountMessages.usernameTooSoon(from.slice(0, 10));
    expect(tooSoon.json()).toMatchObject({
      code: 'business_rule',
      error: message,
      fields: { username: message },
    });
    // Saving the name it already has is no change.
    expect((await rename(token, second)).statusCode).toBe(200);

    // 30 days on (the change's date moved back), it may change again.
    await t.database.db.execute(
      sql`update users set username_changed_at = now() - interval '30 days 1 minute' where id = ${user.id}`,
    );
    expect((await settingsOf(token)).usernameChangeableFrom).toBeNull();
    expect((await rename(token, uniqueName('later'))).statusCode).toBe(200);
  });

  it('holds the old name for 30 days: nobody else may take it, then it is released', async () => {
    const old = uniqueName('held');
    const { user, token } = await signedIn(old);
    expect((await rename(token, uniqueName('newer'))).statusCode).toBe(200);

    const other = await signedIn();
    for (const spelling of [old, old.toUpperCase()]) {
      const res = await rename(other.token, spelling);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'username_taken',
        error: usersMessages.usernameTaken,
      });
    }

    // The owner may take it back (after their own change limit).
    await t.database.db.execute(
      sql`update users set username_changed_at = now() - interval '31 days' where id = ${user.id}`,
    );
    expect((await rename(token, old)).statusCode).toBe(200);
    const again = uniqueName('again');
    await t.database.db.execute(
      sql`update users set username_changed_at = now() - interval '31 days' where id = ${user.id}`,
    );
    expect((await rename(token, again)).statusCode).toBe(200);
    expect((await rename(other.token, old)).statusCode).toBe(409);

    // 30 days after the change, the hold ends.
    await t.database.db.execute(
      sql`update username_holds set held_until = now() - interval '1 second' where name = ${old.toLowerCase()}`,
    );
    const claimed = await rename(other.token, old);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().user.username).toBe(old);
  });

  it('a name held for someone is not given to an account filled from Discord either', async () => {
    const old = uniqueName('disc');
    const { token } = await signedIn(old);
    expect((await rename(token, uniqueName('moved'))).statusCode).toBe(200);
    const { fillUsernameFrom } = await import('./service.ts');
    const other = await signedIn();
    await fillUsernameFrom(t.deps, other.user.id, old);
    const name = (await t.call(usersRoutes.getProfile, { token: other.token })).json().user
      .username as string;
    expect(name.toLowerCase()).not.toBe(old.toLowerCase());
  });
});
