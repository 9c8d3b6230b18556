import type { VendorCommunityProduct } from '@tradeshelf/contract';

export interface RoleView {
  id: string;
  name: string;
  /** The server's words for why the bot cannot give it, with the fix; null when it can. */
  problem: string | null;
}

/** A short label beside a role; the server's full sentence says how to fix it. */
export function problemLabel(problem: string | null): string | null {
  if (!problem) return null;
  if (/Manage Roles/i.test(problem)) return 'Bot lacks Manage Roles';
  if (/not in (this|.+) any more/i.test(problem)) return 'Bot removed from server';
  if (/managed by an integration/i.test(problem)) return 'Managed by an integration';
  if (/@everyone/i.test(problem)) return 'Everyone’s role';
  if (/above the bot/i.test(problem)) return 'Above the bot’s role';
  if (/no longer exists/i.test(problem)) return 'Deleted';
  return 'Cannot be given';
}

/** "2 of 4 roles can be given by the bot." */
export function rolesSummary(roles: readonly RoleView[]): string {
  const ok = roles.filter((r) => !r.problem).length;
  if (!roles.length) return 'This server has no roles yet. Create one in Discord first.';
  if (ok === roles.length)
    return `The bot can give all ${roles.length} role${roles.length === 1 ? '' : 's'}.`;
  if (!ok) return 'The bot cannot give any of these roles yet. Fix the problems below.';
  return `${ok} of ${roles.length} roles can be given by the bot.`;
}

/**
 * Why the chosen roles cannot be bound, in the server's words (each sentence once: a server-wide
 * problem is named on every role), or null when they can.
 */
export function choiceProblem(
  roles: readonly RoleView[],
  chosen: readonly string[],
): string | null {
  if (!chosen.length) return 'Choose at least one role.';
  const problems = [
    ...new Set(
      roles.filter((r) => chosen.includes(r.id) && r.problem).map((r) => r.problem as string),
    ),
  ];
  return problems.length ? problems.join(' ') : null;
}

/** The hub's line for Discord: servers, bound products and what still needs binding. */
export function discordSummary(
  serverCount: number,
  products: ReadonlyArray<Pick<VendorCommunityProduct, 'binding' | 'title'>>,
  more: boolean,
): { tone: 'ok' | 'attention'; lines: string[] } {
  const lines: string[] = [];
  const unbound = products.filter((p) => !p.binding);
  if (!serverCount) lines.push('The bot is in none of your servers yet.');
  else lines.push(`The bot is in ${serverCount} server${serverCount === 1 ? '' : 's'}.`);
  if (!products.length) lines.push('You have no Discord community products.');
  else if (!unbound.length)
    lines.push(
      `Every community product${products.length === 1 ? ' is' : 's are'} bound to a role.`,
    );
  else
    lines.push(
      `${unbound.length}${more ? '+' : ''} community product${unbound.length === 1 ? ' has' : 's have'} no Discord role bound: ${unbound
        .slice(0, 3)
        .map((p) => `“${p.title}”`)
        .join(', ')}${unbound.length > 3 ? '…' : ''}`,
    );
  return {
    tone: !serverCount && products.length ? 'attention' : unbound.length ? 'attention' : 'ok',
    lines,
  };
}
