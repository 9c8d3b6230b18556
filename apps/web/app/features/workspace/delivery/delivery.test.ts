import type { TradingViewTask } from '@tradeshelf/contract';
import { tradingViewMessages } from '@tradeshelf/contract/client';
import { describe, expect, it } from 'vitest';
import { formatSpan, queueSummary, taskTiming } from './overdue.ts';
import { choiceProblem, discordSummary, problemLabel, rolesSummary } from './roles.ts';
import { scriptProblems } from './tradingview.tsx';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const HOUR = 3_600_000;
const at = (offsetHours: number) => new Date(NOW + offsetHours * HOUR).toISOString();

const task = (over: Partial<TradingViewTask> = {}): TradingViewTask => ({
  id: 'tvt_1',
  kind: 'revoke',
  status: 'pending',
  username: 'AlphaTrader',
  scripts: [],
  product: { id: 'prd_1', title: 'RSI Pro' },
  purchaseId: 'pur_1',
  expiresAt: null,
  reason: 'refunded',
  reasonText: 'The purchase was refunded',
  createdAt: at(-30),
  dueAt: at(-6),
  overdue: true,
  completedAt: null,
  note: null,
  ...over,
});

describe('formatSpan', () => {
  it('names the two largest units, singular or plural', () => {
    expect(formatSpan(30_000)).toBe('less than a minute');
    expect(formatSpan(60_000)).toBe('1 minute');
    expect(formatSpan(5 * HOUR + 59 * 60_000)).toBe('5 hours');
    expect(formatSpan(24 * HOUR)).toBe('1 day');
    expect(formatSpan(51 * HOUR)).toBe('2 days 3 hours');
    expect(formatSpan(-HOUR)).toBe('less than a minute');
  });
});

describe('taskTiming', () => {
  it('says how overdue a revocation is', () => {
    expect(taskTiming(task(), NOW)).toEqual({ overdue: true, text: 'Overdue by 6 hours' });
  });

  it('turns a task overdue on the clock, without waiting for the server’s flag', () => {
    const soon = task({ dueAt: at(2), overdue: false });
    expect(taskTiming(soon, NOW)).toEqual({ overdue: false, text: 'Due in 2 hours' });
    expect(taskTiming(soon, NOW + 3 * HOUR)).toEqual({ overdue: true, text: 'Overdue by 1 hour' });
  });

  it('counts a grant’s wait, and says nothing once a task is done or cancelled', () => {
    const grant = task({ kind: 'grant', dueAt: null, overdue: false, createdAt: at(-26) });
    expect(taskTiming(grant, NOW)).toEqual({ overdue: false, text: 'Waiting 1 day 2 hours' });
    expect(taskTiming(task({ status: 'done' }), NOW)).toEqual({ overdue: false, text: null });
    expect(taskTiming(task({ status: 'cancelled' }), NOW).overdue).toBe(false);
  });
});

describe('queueSummary', () => {
  it('counts pending grants, revocations and the overdue ones', () => {
    const tasks = [
      task(),
      task({ id: 'b', kind: 'grant', dueAt: null, overdue: false }),
      task({ id: 'c', dueAt: at(5), overdue: false }),
    ];
    expect(queueSummary(tasks, false, NOW)).toEqual({
      tone: 'attention',
      text: '3 pending (1 grant, 2 revocations), 1 overdue.',
    });
    expect(queueSummary(tasks.slice(1, 2), true, NOW).text).toBe('1+ pending (1 grant).');
    expect(queueSummary([], false, NOW)).toEqual({
      tone: 'ok',
      text: 'No access changes waiting.',
    });
  });
});

describe('role problems', () => {
  const above =
    "The role “VIP” sits above the bot's role: drag the Tradeshelf role above it in Server Settings → Roles.";
  const managed = '“Nitro Booster” is managed by an integration and cannot be assigned.';
  const noManage =
    'The bot needs the Manage Roles permission in Traders: Server Settings → Roles → Tradeshelf → turn on Manage Roles.';
  const roles = [
    { id: '1', name: 'VIP', problem: above },
    { id: '2', name: 'Member', problem: null },
    { id: '3', name: 'Nitro Booster', problem: managed },
  ];

  it('labels each problem briefly', () => {
    expect(problemLabel(above)).toBe('Above the bot’s role');
    expect(problemLabel(managed)).toBe('Managed by an integration');
    expect(problemLabel(noManage)).toBe('Bot lacks Manage Roles');
    expect(
      problemLabel('The bot is not in Traders any more: add it again with the install link.'),
    ).toBe('Bot removed from server');
    expect(problemLabel('Something new.')).toBe('Cannot be given');
    expect(problemLabel(null)).toBeNull();
  });

  it('summarises what the bot can give', () => {
    expect(rolesSummary(roles)).toBe('1 of 3 roles can be given by the bot.');
    expect(rolesSummary([roles[1]!])).toBe('The bot can give all 1 role.');
    expect(rolesSummary([roles[0]!])).toMatch(/cannot give any/);
    expect(rolesSummary([])).toMatch(/no roles yet/);
  });

  it('says why a choice would be refused, each sentence once', () => {
    expect(choiceProblem(roles, ['2'])).toBeNull();
    expect(choiceProblem(roles, [])).toBe('Choose at least one role.');
    expect(choiceProblem(roles, ['1', '2', '3'])).toBe(`${above} ${managed}`);
    const serverWide = roles.map((r) => ({ ...r, problem: noManage }));
    expect(choiceProblem(serverWide, ['1', '2'])).toBe(noManage);
  });
});

describe('discordSummary', () => {
  const bound = {
    title: 'VIP Room',
    binding: { productId: 'p', server: { id: 's', name: 'S', iconUrl: null }, roles: [] },
  };
  it('asks for the bot first, then for each unbound product', () => {
    expect(discordSummary(0, [{ title: 'Signals', binding: null }], false)).toEqual({
      tone: 'attention',
      lines: [
        'The bot is in none of your servers yet.',
        '1 community product has no Discord role bound: “Signals”',
      ],
    });
    expect(discordSummary(2, [bound], false)).toEqual({
      tone: 'ok',
      lines: ['The bot is in 2 servers.', 'Every community product is bound to a role.'],
    });
    const many = ['A', 'B', 'C', 'D'].map((title) => ({ title, binding: null }));
    expect(discordSummary(1, many, true).lines[1]).toBe(
      '4+ community products have no Discord role bound: “A”, “B”, “C”…',
    );
    expect(discordSummary(0, [], false)).toEqual({
      tone: 'ok',
      lines: ['The bot is in none of your servers yet.', 'You have no Discord community products.'],
    });
  });
});

describe('scriptProblems', () => {
  it('uses the contract’s words for a missing name and a link that is not a script page', () => {
    expect(scriptProblems({ name: ' ', url: 'https://example.com/x' })).toEqual({
      name: tradingViewMessages.scriptName,
      url: tradingViewMessages.scriptUrl,
    });
    expect(
      scriptProblems({
        name: 'RSI Pro',
        url: 'https://www.tradingview.com/script/AbCd1234-RSI-Pro/',
      }),
    ).toEqual({});
  });
});
