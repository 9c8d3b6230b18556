import { analyticsRoutes, authRoutes } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories/users.ts';
import { expectRefused } from '../../../test/cursors.ts';
import { useTestApp } from '../../../test/harness.ts';
import { analyticsEvents } from './tables.ts';

const t = useTestApp();

const now = () => new Date().toISOString();

describe('analytics events', () => {
  it('stores page views anonymously and identifies only with a verified token', async () => {
    const user = await createUser(t);
    const token = (
      await t.call(authRoutes.login, { body: { email: user.email, password: user.password } })
    ).json().token;
    const anon = await t.call(analyticsRoutes.track, {
      body: {
        events: [
          {
            type: 'page_view',
            anonymousId: 'anon-12345',
            path: '/',
            title: 'Home',
            occurredAt: now(),
          },
        ],
      },
    });
    expect(anon.statusCode).toBe(202);
    expect(anon.json()).toEqual({ accepted: 1 });
    const claimed = await t.call(analyticsRoutes.track, {
      body: {
        events: [
          {
            type: 'identify',
            anonymousId: 'anon-12345',
            userId: 'usr_someone_else',
            occurredAt: now(),
          },
        ],
      },
    });
    expect(claimed.statusCode).toBe(202);
    const identified = await t.call(analyticsRoutes.track, {
      token,
      body: {
        events: [
          { type: 'identify', anonymousId: 'anon-12345', userId: user.id, occurredAt: now() },
        ],
      },
    });
    expect(identified.statusCode).toBe(202);
    const rows = await t.database.db.select().from(analyticsEvents).orderBy(analyticsEvents.id);
    expect(rows.map((r) => [r.type, r.userId])).toEqual([
      ['page_view', null],
      ['identify', null],
      ['identify', user.id],
    ]);
  });

  it('answers 400 naming the field for a time PostgreSQL refuses, and stores nothing (issue 26)', async () => {
    const before = (await t.database.db.select().from(analyticsEvents)).length;
    const event = { type: 'page_view', anonymousId: 'anon-12345', path: '/x', occurredAt: now() };
    for (const occurredAt of ['0000-01-01T00:00:00Z', '0000-12-31T23:59:59.999Z']) {
      const res = await t.call(analyticsRoutes.track, {
        body: { events: [event, { ...event, occurredAt }] },
      });
      expectRefused(res, 'events.1.occurredAt', occurredAt);
    }
    expect((await t.database.db.select().from(analyticsEvents)).length).toBe(before);
  });

  it('rejects empty, oversized and malformed batches without storing anything', async () => {
    const before = (await t.database.db.select().from(analyticsEvents)).length;
    const event = { type: 'page_view', anonymousId: 'anon-12345', path: '/x', occurredAt: now() };
    for (const events of [
      [],
      Array(51).fill(event),
      [{ ...event, type: 'purchase' }],
      [{ ...event, occurredAt: 'yesterday' }],
    ]) {
      const res = await t.call(analyticsRoutes.track, { body: { events } });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await t.database.db.select().from(analyticsEvents)).length).toBe(before);
  });
});
