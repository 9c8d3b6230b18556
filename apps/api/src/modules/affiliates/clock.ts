// The hold clock (ADR 037): commission written before the cutoff is past its hold. Outside
// production a stored offset moves the clock ahead (the sandbox's "Advance" button), so a person or
// a test can see a hold end without waiting a month; production never reads it.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';

export const DAY_MS = 86_400_000;

export interface Hold {
  /** Commission written at or before this is available. */
  cutoff: Date;
  /** Days from a commission to its availability, as the clock runs now (hold less any offset). */
  days: number;
}

export async function holdNow(deps: AppDeps, db: Tx): Promise<Hold> {
  const offset =
    deps.config.APP_ENV === 'production'
      ? sql`0`
      : sql`coalesce((select offset_days from affiliate_clock where id = 1), 0)`;
  const found = await db.execute<{ cutoff: Date | string; days: number }>(
    sql`select now() - make_interval(days => ${deps.config.AFFILIATE_HOLD_DAYS}::int - ${offset}) as cutoff,
          (${deps.config.AFFILIATE_HOLD_DAYS}::int - ${offset})::int as days`,
  );
  const row = found.rows[0]!;
  return { cutoff: new Date(row.cutoff), days: row.days };
}

/** Days the test clock runs ahead. */
export async function clockOffset(db: Tx): Promise<number> {
  const found = await db.execute<{ offset_days: number }>(
    sql`select offset_days from affiliate_clock where id = 1`,
  );
  return found.rows[0]?.offset_days ?? 0;
}

/** Moves the test clock `days` further ahead (0 puts it back). Never called in production. */
export async function moveClock(deps: AppDeps, db: Tx, days: number): Promise<number> {
  if (deps.config.APP_ENV === 'production') throw new Error('the hold clock is not for production');
  const found = await db.execute<{ offset_days: number }>(
    sql`insert into affiliate_clock (id, offset_days) values (1, ${days})
        on conflict (id) do update set
          offset_days = case when ${days} = 0 then 0 else affiliate_clock.offset_days + ${days} end,
          updated_at = now()
        returning offset_days`,
  );
  return found.rows[0]!.offset_days;
}
