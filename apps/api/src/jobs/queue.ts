import PgBoss from 'pg-boss';

export const queues = {
  mailDeliver: 'mail.deliver',
  mailSweep: 'mail.sweep',
  checkoutExpiry: 'orders.expire-checkouts',
} as const;

/** pg-boss in the application database: jobs commit and survive with the data they act on. */
export async function startQueue(connectionString: string): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString, max: 4, schema: 'pgboss' });
  boss.on('error', () => undefined);
  await boss.start();
  for (const name of Object.values(queues)) {
    await boss.createQueue(name, { name, retryLimit: 5, retryDelay: 5, retryBackoff: true });
  }
  return boss;
}
