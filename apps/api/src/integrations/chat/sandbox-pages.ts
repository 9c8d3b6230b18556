import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { z } from 'zod';
import { cspNonce } from '../../platform/csp.ts';
import { localOnly } from '../../platform/local-only.ts';
import {
  BOT_PERMISSIONS,
  channelPermissions,
  describeChannel,
  hasPermission,
  PERMISSION_NAMES,
} from './permissions.ts';
import {
  SANDBOX_APP_NAME,
  botRoleIdOf,
  type SandboxChannel,
  type SandboxDiscord,
  type SandboxGuild,
  type SandboxMessage,
  type SandboxRole,
  type SandboxUser,
} from './sandbox.ts';

/*
 * The pages a person uses in the Discord sandbox (ADR 030): authorise the app (OAuth2, also adding
 * the bot to a server), join by invite, and manage servers by hand (kick, remove or add a role,
 * break the bot's permission or role order to see what the app says). Server-rendered, no script.
 */

const BASE = '/sandbox/discord';
const COOKIE = 'sandbox_discord_user';

const esc = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c]!,
  );

/** What each scope lets the app do, in the words of Discord's authorize page. */
const SCOPES: Record<string, string> = {
  identify: 'Access your username, avatar and banner',
  email: 'Access your email address',
  guilds: 'Know what servers you’re in',
  'guilds.join': 'Join servers for you',
  bot: 'Add a bot to a server',
  'applications.commands': 'Create commands',
};

function page(
  nonce: string,
  title: string,
  body: string,
  user: SandboxUser | null,
  servers: boolean,
): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${esc(title)} · Discord sandbox</title>
<style nonce="${nonce}">
body{font-family:system-ui,sans-serif;background:#1e1f22;color:#dbdee1;margin:0;padding:2rem 1rem}
main{max-width:44rem;margin:0 auto;background:#2b2d31;border-radius:10px;padding:1.5rem}
h1{font-size:1.35rem;margin-top:0;color:#f2f3f5} h2{font-size:1.05rem;color:#f2f3f5;margin-top:1.6rem}
a{color:#00a8fc} .muted{color:#949ba4;font-size:.9rem} .error{color:#fa777c}
table{width:100%;border-collapse:collapse;margin:.6rem 0} th,td{text-align:left;padding:.4rem .3rem;border-bottom:1px solid #3f4147;vertical-align:top}
form.inline{display:inline} fieldset{border:1px solid #3f4147;border-radius:8px;margin:1rem 0} legend{padding:0 .3rem}
label{display:block;margin:.4rem 0} label.check{display:flex;gap:.5rem;align-items:center}
input[type=text],select{font:inherit;padding:.45rem .6rem;border-radius:6px;border:1px solid #4e5058;background:#1e1f22;color:#f2f3f5}
button{font:inherit;padding:.45rem 1rem;border-radius:6px;border:1px solid #4e5058;background:#4e5058;color:#fff;cursor:pointer;margin:.15rem 0}
button.primary{background:#5865f2;border-color:#5865f2} button.danger{background:#da373c;border-color:#da373c}
button.small{padding:.15rem .5rem;font-size:.85rem}
:focus-visible{outline:2px solid #00a8fc;outline-offset:2px}
.role{display:inline-block;padding:.05rem .45rem;border-radius:999px;background:#3f4147;font-size:.85rem;margin:.1rem .2rem .1rem 0}
.row{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}
.msg{border-top:1px solid #3f4147;padding:.7rem 0} .embed{border-left:4px solid #5865f2;background:#232428;border-radius:4px;padding:.5rem .8rem;margin-top:.4rem;max-width:32rem}
.embed h3{margin:.1rem 0 .3rem;font-size:1rem;color:#f2f3f5} .embed dl{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;margin:.4rem 0} .embed dt{font-weight:600;font-size:.8rem;color:#f2f3f5} .embed dd{margin:0}
.embed img{max-width:100%;border-radius:4px;margin-top:.4rem}
</style></head><body><main>
<p class="muted">Discord sandbox: nothing here reaches Discord.${servers ? ` <a href="${BASE}">Servers</a>` : ''}${
    user ? ` · Signed in as <strong>${esc(user.username)}</strong>` : ''
  }</p>${body}</main></body></html>`;
}

/** The server pages exist only in `local` (and answer loopback only): elsewhere, no link to them. */
const hasServerPages = (app: FastifyInstance) => app.deps.config.APP_ENV === 'local';

function html(
  reply: FastifyReply,
  title: string,
  body: string,
  user: SandboxUser | null,
  status = 200,
) {
  const nonce = cspNonce(reply);
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(page(nonce, title, body, user, hasServerPages(reply.server)));
}

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;

function cookieUserId(req: FastifyRequest): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === COOKIE && value && /^\d{1,19}$/.test(value)) return value;
  }
  return null;
}

function remember(reply: FastifyReply, user: SandboxUser): void {
  void reply.header(
    'set-cookie',
    `${COOKIE}=${user.id}; Path=${BASE}; HttpOnly; SameSite=Lax; Max-Age=31536000`,
  );
}

/**
 * Refuses a form posted from another site (CSRF): the browser's `Origin` must be this app's, or,
 * without it, `Sec-Fetch-Site` must say same-origin. A request with neither is refused.
 */
function sameOrigin(req: FastifyRequest): boolean {
  const own = new Set([new URL(`${req.protocol}://${req.host}`).host]);
  const configured = req.server.deps.config.PUBLIC_URL;
  if (configured) own.add(new URL(configured).host);
  const origin = req.headers.origin;
  if (origin && origin !== 'null') {
    try {
      return own.has(new URL(origin).host);
    } catch {
      return false;
    }
  }
  return req.headers['sec-fetch-site'] === 'same-origin';
}

/** Where the authorize page may send codes: this app (any port on loopback, for a dev server). */
function allowedRedirect(req: FastifyRequest, uri: string): URL | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const own = [new URL(`${req.protocol}://${req.host}`).host];
  const configured = req.server.deps.config.PUBLIC_URL;
  if (configured) own.push(new URL(configured).host);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return own.includes(url.host) || loopback ? url : null;
}

const form = (req: FastifyRequest) =>
  req.body instanceof URLSearchParams ? req.body : new URLSearchParams();

const id = z.string().regex(/^\d{1,19}$/, 'Not a sandbox id.');
const guildParams = z.object({ g: id });
const memberParams = z.object({ g: id, u: id });
const memberRoleParams = z.object({ g: id, u: id, r: id });
const channelParams = z.object({ g: id, c: id });
const inviteParams = z.object({ code: z.string().regex(/^[A-Za-z0-9]{1,32}$/, 'Not an invite.') });
const authorizeQuery = z.object({
  client_id: z.string().max(40).default(''),
  redirect_uri: z.string().max(2000).default(''),
  response_type: z.string().max(40).default(''),
  scope: z.string().max(500).default(''),
  state: z.string().max(1000).default(''),
  prompt: z.string().max(40).optional(),
  permissions: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
});
type AuthorizeRequest = z.infer<typeof authorizeQuery>;

/** Who can read a channel, in words: everyone, some roles, or nobody but admins. */
function readersHtml(report: { everyone: boolean; readers: string[] }): string {
  if (report.everyone) return '<strong>everyone</strong> in the server';
  if (!report.readers.length) return '<span class="muted">only the owner and admins</span>';
  return report.readers.map((r) => `<span class="role">${esc(r)}</span>`).join('');
}

interface EmbedShape {
  title?: string;
  description?: string;
  url?: string;
  timestamp?: string;
  fields?: Array<{ name: string; value: string }>;
  image?: { url: string };
}

function messageHtml(m: SandboxMessage): string {
  const embeds = (m.embeds as EmbedShape[])
    .map((e) => {
      const title = e.title
        ? `<h3>${e.url ? `<a href="${esc(e.url)}">${esc(e.title)}</a>` : esc(e.title)}</h3>`
        : '';
      const fields = e.fields?.length
        ? `<dl>${e.fields.map((f) => `<div><dt>${esc(f.name)}</dt><dd>${esc(f.value)}</dd></div>`).join('')}</dl>`
        : '';
      const image = e.image?.url
        ? `<img src="${esc(e.image.url)}" alt="${esc(e.title ?? 'Picture')}">`
        : '';
      return `<div class="embed">${title}${e.description ? `<p>${esc(e.description)}</p>` : ''}${fields}${image}</div>`;
    })
    .join('');
  return `<article class="msg" data-message="${m.id}"><p><strong>${SANDBOX_APP_NAME}</strong> <span class="role">BOT</span> <span class="muted">${new Date(m.createdAt).toISOString().slice(0, 19).replace('T', ' ')} UTC</span></p>${m.content ? `<p>${esc(m.content)}</p>` : ''}${embeds}</article>`;
}

/** A channel: who can read it (roles, and members now), the bot's standing there, its messages. */
function channelPage(
  guild: SandboxGuild,
  channel: SandboxChannel,
  roles: SandboxRole[],
  members: Array<{ userId: string; username: string; bot: boolean; roleIds: string[] }>,
  bot: { userId: string; roleIds: string[] } | null,
  messages: SandboxMessage[],
): string {
  const report = describeChannel(guild, roles, bot, channel, channel.overwrites, []);
  const readers = members.filter(
    (m) =>
      !m.bot &&
      hasPermission(
        channelPermissions(guild, roles, m, channel.overwrites),
        PermissionFlagsBits.ViewChannel,
      ),
  );
  const botBits = bot ? channelPermissions(guild, roles, bot, channel.overwrites) : 0n;
  const canSend = hasPermission(botBits, PermissionFlagsBits.SendMessages);
  return `<h1>#${esc(channel.name)}</h1>
<p class="muted">In <a href="${BASE}/servers/${guild.id}">${esc(guild.name)}</a>${channel.topic ? ` · ${esc(channel.topic)}` : ''}</p>
<h2>Who can read it</h2><p>Roles: ${readersHtml(report)}</p>
<p>Members who can read it now: ${readers.length ? readers.map((m) => `<span class="role">${esc(m.username)}</span>`).join('') : '<span class="muted">none</span>'}</p>
<h2>The bot here</h2><p>Send Messages is <strong>${canSend ? 'allowed' : 'denied'}</strong> for the ${SANDBOX_APP_NAME} bot in this channel.</p>
<form method="post" action="${BASE}/channels/${guild.id}/${channel.id}/bot/send">${hidden('on', canSend ? 'false' : 'true')}<button type="submit">${canSend ? 'Deny' : 'Allow'} the bot Send Messages here</button></form>
<h2>Messages</h2>${messages.length ? `<div data-testid="channel-messages">${messages.map(messageHtml).join('')}</div>` : '<p class="muted">No messages yet.</p>'}`;
}

export async function sandboxDiscordPages(app: FastifyInstance): Promise<void> {
  const sandbox: SandboxDiscord = app.deps.discordSandbox!;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Forms post url-encoded bodies; checkboxes repeat a name, so the handlers read URLSearchParams.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, new URLSearchParams(body as string)),
  );
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'POST' || sameOrigin(req)) return;
    return html(
      reply,
      'Refused',
      '<h1>Refused</h1><p>This form was sent from another site.</p>',
      null,
      403,
    );
  });

  const signedIn = async (req: FastifyRequest) => {
    const userId = cookieUserId(req);
    const user = userId ? await sandbox.user(userId) : null;
    return user && !user.bot ? user : null;
  };

  const signInForm = (returnTo: string, user: SandboxUser | null) =>
    `<form method="post" action="${BASE}/session" class="row">${hidden('return', returnTo)}
<label for="session-username">${user ? 'Switch account' : 'Sign in as'}</label>
<input type="text" id="session-username" name="username" required pattern="[A-Za-z0-9_.]{2,32}" autocomplete="username" value="${esc(user?.username ?? '')}">
<button type="submit">${user ? 'Switch' : 'Sign in'}</button></form>
<p class="muted">Any name works: a sandbox account is created the first time it is used.</p>`;

  routes.post('/sandbox/discord/session', { schema: { hide: true } }, async (req, reply) => {
    const body = form(req);
    const user = await sandbox.ensureUser(body.get('username') ?? '');
    const returnTo = body.get('return') ?? BASE;
    const safe = returnTo.startsWith(`${BASE}`) && !returnTo.startsWith('//') ? returnTo : BASE;
    if (!user)
      return html(
        reply,
        'Sign in',
        `<h1>Sign in</h1><p class="error" role="alert">Use 2–32 letters, digits, “_” or “.”.</p>${signInForm(safe, null)}`,
        null,
        400,
      );
    remember(reply, user);
    return reply.redirect(safe, 303);
  });

  /*
   * Servers: the provider's back office (kick anyone, take roles, switch off a vendor's bot), so for
   * this machine only, as the payments sandbox's dashboard is. What a person uses on Discord's own
   * site (authorise, sign in, join by invite) stays reachable, as on Discord.
   */
  await app.register(async (office) => {
    office.addHook('onRequest', localOnly(app.deps.config));
    const routes = office.withTypeProvider<ZodTypeProvider>();

    routes.get('/sandbox/discord', { schema: { hide: true } }, async (req, reply) => {
      const user = await signedIn(req);
      const guilds = await sandbox.guilds();
      const list = guilds
        .map(
          (g) =>
            `<tr><td><a href="${BASE}/servers/${g.id}">${esc(g.name)}</a></td><td>${g.members} ${
              g.members === 1 ? 'member' : 'members'
            }</td><td>${g.botIn ? `${SANDBOX_APP_NAME} bot added` : '<span class="muted">no bot</span>'}</td></tr>`,
        )
        .join('');
      return html(
        reply,
        'Servers',
        `<h1>Servers</h1>${signInForm(BASE, user)}
  ${list ? `<table><thead><tr><th scope="col">Server</th><th scope="col">Members</th><th scope="col">Bot</th></tr></thead><tbody>${list}</tbody></table>` : '<p>No servers yet.</p>'}
  <h2>Create a server</h2>${
    user
      ? `<form method="post" action="${BASE}/servers">
  <label for="server-name">Server name</label><input type="text" id="server-name" name="name" required maxlength="100">
  <label for="server-roles">Roles, top first, separated by commas</label><input type="text" id="server-roles" name="roles" maxlength="500" value="VIP, Member">
  <button type="submit" class="primary">Create server</button></form>`
      : '<p class="muted">Sign in to create a server you own.</p>'
  }`,
        user,
      );
    });

    routes.post('/sandbox/discord/servers', { schema: { hide: true } }, async (req, reply) => {
      const user = await signedIn(req);
      const body = form(req);
      const name = (body.get('name') ?? '').trim().slice(0, 100);
      if (!user || !name) return reply.redirect(BASE, 303);
      const roles = (body.get('roles') ?? '')
        .split(',')
        .map((r) => r.trim().slice(0, 100))
        .filter(Boolean)
        .slice(0, 20);
      const guildId = await sandbox.createGuild({ name, ownerId: user.id, roles });
      return reply.redirect(`${BASE}/servers/${guildId}`, 303);
    });

    routes.get(
      '/sandbox/discord/servers/:g',
      {
        schema: {
          hide: true,
          params: guildParams,
          querystring: z.object({ after: id.optional() }),
        },
      },
      async (req, reply) => {
        const user = await signedIn(req);
        const guild = await sandbox.guild(req.params.g);
        if (!guild)
          return html(reply, 'Unknown server', '<h1>That server does not exist</h1>', user, 404);
        const [roles, members, standing, channels, bot] = await Promise.all([
          sandbox.roles(guild.id),
          sandbox.listMembers(guild.id, req.query.after ?? '0', 100),
          sandbox.botStanding(guild),
          sandbox.channels(guild.id),
          sandbox.member(guild.id, sandbox.botId),
        ]);
        const channelRows = channels
          .map((c) => {
            const report = describeChannel(guild, roles, bot, c, c.overwrites, []);
            return `<tr><td><a href="${BASE}/channels/${guild.id}/${c.id}">#${esc(c.name)}</a></td><td>${readersHtml(report)}</td></tr>`;
          })
          .join('');
        const name = (roleId: string) => roles.find((r) => r.id === roleId)?.name ?? roleId;
        const botRoleId = botRoleIdOf(guild.id);
        const assignable = roles.filter((r) => r.id !== guild.id && !r.managed);
        const action = (path: string) => `${BASE}/servers/${guild.id}${path}`;

        const memberRows = members
          .map((m) => {
            const held = m.roleIds
              .map(
                (r) =>
                  `<span class="role">${esc(name(r))}${
                    m.bot || roles.find((x) => x.id === r)?.managed
                      ? ''
                      : ` <form method="post" class="inline" action="${action(`/members/${m.userId}/roles/${r}/remove`)}"><button type="submit" class="small" aria-label="Remove ${esc(name(r))} from ${esc(m.username)}">×</button></form>`
                  }</span>`,
              )
              .join('');
            const options = assignable
              .filter((r) => !m.roleIds.includes(r.id))
              .map((r) => `<option value="${r.id}">${esc(r.name)}</option>`)
              .join('');
            const add =
              m.bot || !options
                ? ''
                : `<form method="post" class="row" action="${action(`/members/${m.userId}/roles`)}"><label for="add-${m.userId}" class="muted">Add role</label><select id="add-${m.userId}" name="role">${options}</select><button type="submit" class="small">Add</button></form>`;
            const kick =
              m.bot || m.userId === guild.ownerId
                ? ''
                : `<form method="post" class="inline" action="${action(`/members/${m.userId}/kick`)}"><button type="submit" class="small danger">Kick ${esc(m.username)}</button></form>`;
            return `<tr><td>${esc(m.username)}${m.bot ? ' <span class="role">BOT</span>' : ''}${
              m.userId === guild.ownerId ? ' <span class="muted">(owner)</span>' : ''
            }<br><span class="muted">${m.userId}</span></td><td>${held || '<span class="muted">no roles</span>'}${add}</td><td>${kick}</td></tr>`;
          })
          .join('');
        const next =
          members.length === 100
            ? `<p><a href="${action(`?after=${members.at(-1)!.userId}`)}">Next members</a></p>`
            : '';

        const roleRows = roles
          .map(
            (r) =>
              `<tr><td>${esc(r.name)}${r.id === botRoleId ? ' <span class="muted">(the bot’s role)</span>' : ''}${
                r.managed && r.id !== botRoleId ? ' <span class="muted">(managed)</span>' : ''
              }</td><td>${r.position}</td></tr>`,
          )
          .join('');
        const manageRoles =
          standing &&
          (standing.permissions & PermissionFlagsBits.ManageRoles) ===
            PermissionFlagsBits.ManageRoles;
        const below = roles
          .filter((r) => r.id !== guild.id && r.id !== botRoleId)
          .map((r) => `<option value="${r.id}">${esc(r.name)}</option>`)
          .join('');
        const botControls = standing
          ? `<p>Manage Roles is <strong>${manageRoles ? 'on' : 'off'}</strong> for the ${SANDBOX_APP_NAME} role.</p>
  <form method="post" action="${action('/bot/manage-roles')}">${hidden('on', manageRoles ? 'false' : 'true')}<button type="submit">Turn Manage Roles ${manageRoles ? 'off' : 'on'}</button></form>
  <form method="post" action="${action('/bot/position')}" class="row"><label for="bot-below">Move the ${SANDBOX_APP_NAME} role below</label><select id="bot-below" name="below">${below}<option value="top">nothing (back to the top)</option></select><button type="submit">Move</button></form>`
          : `<p>The bot is not in this server. Add it through the app’s “add the bot” link.</p>`;

        const audit = sandbox.traffic
          .requests({ guildId: guild.id, limit: 50 })
          .reverse()
          .map(
            (r) =>
              `<tr><td>${new Date(r.at).toISOString().slice(11, 23)}</td><td>${esc(r.method)} ${esc(r.path)}${
                r.reason ? `<br><span class="muted">${esc(r.reason)}</span>` : ''
              }</td><td>${r.status || '…'}</td></tr>`,
          )
          .join('');

        return html(
          reply,
          guild.name,
          `<h1>${esc(guild.name)}</h1>
  <h2>Members</h2><table><thead><tr><th scope="col">Member</th><th scope="col">Roles</th><th scope="col"><span class="muted">Actions</span></th></tr></thead><tbody>${memberRows}</tbody></table>${next}
  <h2>Channels</h2>${channelRows ? `<table><thead><tr><th scope="col">Channel</th><th scope="col">Who can read it</th></tr></thead><tbody>${channelRows}</tbody></table>` : '<p class="muted">No channels.</p>'}
  <h2>Roles</h2><table><thead><tr><th scope="col">Role</th><th scope="col">Position</th></tr></thead><tbody>${roleRows}</tbody></table>
  <h2>The bot</h2>${botControls}
  <h2>Recent API calls</h2>${audit ? `<table><thead><tr><th scope="col">Time (UTC)</th><th scope="col">Request</th><th scope="col">Status</th></tr></thead><tbody>${audit}</tbody></table>` : '<p class="muted">None since the app started.</p>'}`,
          user,
        );
      },
    );

    routes.get(
      '/sandbox/discord/channels/:g/:c',
      { schema: { hide: true, params: channelParams } },
      async (req, reply) => {
        const user = await signedIn(req);
        const channel = await sandbox.channel(req.params.c);
        const guild = channel ? await sandbox.guild(channel.guildId) : null;
        if (!channel || !guild || guild.id !== req.params.g)
          return html(reply, 'Unknown channel', '<h1>That channel does not exist</h1>', user, 404);
        const [roles, members, bot, messages] = await Promise.all([
          sandbox.roles(guild.id),
          sandbox.listMembers(guild.id, '0', 100),
          sandbox.member(guild.id, sandbox.botId),
          sandbox.messages(channel.id, 50),
        ]);
        return html(
          reply,
          `#${channel.name}`,
          channelPage(guild, channel, roles, members, bot, messages),
          user,
        );
      },
    );

    routes.post(
      '/sandbox/discord/channels/:g/:c/bot/send',
      { schema: { hide: true, params: channelParams } },
      async (req, reply) => {
        await sandbox.setBotCanPost(req.params.c, form(req).get('on') === 'true');
        return reply.redirect(`${BASE}/channels/${req.params.g}/${req.params.c}`, 303);
      },
    );

    const back = (reply: FastifyReply, guildId: string) =>
      reply.redirect(`${BASE}/servers/${guildId}`, 303);

    routes.post(
      '/sandbox/discord/servers/:g/members/:u/kick',
      { schema: { hide: true, params: memberParams } },
      async (req, reply) => {
        const guild = await sandbox.guild(req.params.g);
        if (guild && req.params.u !== guild.ownerId && req.params.u !== sandbox.botId)
          await sandbox.kick(guild.id, req.params.u);
        return back(reply, req.params.g);
      },
    );

    routes.post(
      '/sandbox/discord/servers/:g/members/:u/roles/:r/remove',
      { schema: { hide: true, params: memberRoleParams } },
      async (req, reply) => {
        const role = (await sandbox.roles(req.params.g)).find((r) => r.id === req.params.r);
        if (role && !role.managed) await sandbox.removeRole(req.params.g, req.params.u, role.id);
        return back(reply, req.params.g);
      },
    );

    routes.post(
      '/sandbox/discord/servers/:g/members/:u/roles',
      { schema: { hide: true, params: memberParams } },
      async (req, reply) => {
        const roleId = form(req).get('role') ?? '';
        const role = (await sandbox.roles(req.params.g)).find(
          (r) => r.id === roleId && r.id !== req.params.g,
        );
        if (role && !role.managed && (await sandbox.member(req.params.g, req.params.u)))
          await sandbox.addRole(req.params.g, req.params.u, role.id);
        return back(reply, req.params.g);
      },
    );

    routes.post(
      '/sandbox/discord/servers/:g/bot/manage-roles',
      { schema: { hide: true, params: guildParams } },
      async (req, reply) => {
        await sandbox.setBotManageRoles(req.params.g, form(req).get('on') === 'true');
        return back(reply, req.params.g);
      },
    );

    routes.post(
      '/sandbox/discord/servers/:g/bot/position',
      { schema: { hide: true, params: guildParams } },
      async (req, reply) => {
        const below = form(req).get('below') ?? 'top';
        await sandbox.moveBotRole(req.params.g, /^\d{1,19}$/.test(below) ? below : null);
        return back(reply, req.params.g);
      },
    );
  });

  /* OAuth2: authorise the app, or add the bot to a server */

  /** The request's problem, answered on the page (bad client or redirect) or at the redirect. */
  function checkAuthorize(
    req: FastifyRequest,
    reply: FastifyReply,
    q: AuthorizeRequest,
    user: SandboxUser | null,
  ): { redirect: URL; scopes: string[] } | FastifyReply {
    if (q.client_id !== sandbox.clientId)
      return html(
        reply,
        'Unknown application',
        '<h1>Unknown application</h1><p>The link names an application this sandbox does not know.</p>',
        user,
        400,
      );
    const redirect = allowedRedirect(req, q.redirect_uri);
    if (!redirect)
      return html(
        reply,
        'Invalid redirect',
        '<h1>Invalid OAuth2 redirect_uri</h1><p>The sandbox sends codes only to this app or to a loopback address.</p>',
        user,
        400,
      );
    const scopes = [...new Set(q.scope.split(/[\s+]+/).filter(Boolean))];
    const fail = (error: string) => {
      redirect.searchParams.set('error', error);
      if (q.state) redirect.searchParams.set('state', q.state);
      return reply.redirect(redirect.toString(), 303);
    };
    if (q.response_type !== 'code') return fail('unsupported_response_type');
    if (!scopes.length || scopes.some((s) => !(s in SCOPES))) return fail('invalid_scope');
    return { redirect, scopes };
  }

  function withCode(
    redirect: URL,
    code: string,
    state: string,
    extra: Record<string, string> = {},
  ) {
    redirect.searchParams.set('code', code);
    if (state) redirect.searchParams.set('state', state);
    for (const [k, v] of Object.entries(extra)) redirect.searchParams.set(k, v);
    return redirect.toString();
  }

  routes.get(
    '/sandbox/discord/oauth2/authorize',
    { schema: { hide: true, querystring: authorizeQuery } },
    async (req, reply) => {
      const user = await signedIn(req);
      const q = req.query;
      const checked = checkAuthorize(req, reply, q, user);
      if (!('scopes' in checked)) return checked;
      const { redirect, scopes } = checked;
      const fields = Object.entries(q)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => hidden(k, v as string))
        .join('');
      const here = req.url;

      if (scopes.includes('bot')) {
        if (!user)
          return html(
            reply,
            `Add ${SANDBOX_APP_NAME}`,
            `<h1>Add ${SANDBOX_APP_NAME} to a server</h1><p>Sign in to choose one of your servers.</p>${signInForm(here, null)}`,
            null,
          );
        const owned = await sandbox.ownedGuilds(user.id);
        const requested = q.permissions ? BigInt(q.permissions) : BOT_PERMISSIONS;
        const perms = PERMISSION_NAMES.filter(([flag]) => (requested & flag) === flag)
          .map(
            ([flag, label], i) =>
              `<label class="check" for="perm-${i}"><input type="checkbox" id="perm-${i}" name="perm" value="${flag}" checked> ${esc(label)}</label>`,
          )
          .join('');
        return html(
          reply,
          `Add ${SANDBOX_APP_NAME}`,
          `<h1>Add ${SANDBOX_APP_NAME} to a server</h1>${signInForm(here, user)}
${
  owned.length
    ? `<form method="post" action="${BASE}/oauth2/authorize">${fields}
<label for="guild">Add to server</label><select id="guild" name="guild_id" required>${owned
        .map((g) => `<option value="${g.id}">${esc(g.name)}</option>`)
        .join('')}</select>
<fieldset><legend>Grant these permissions</legend>${perms}</fieldset>
<div class="row"><button type="submit" name="decision" value="authorize" class="primary">Authorize</button>
<button type="submit" name="decision" value="cancel">Cancel</button></div></form>`
    : `<p>You own no servers. ${
        hasServerPages(app)
          ? `<a href="${BASE}">Create one</a>, then come back to this page.`
          : 'Servers are created on the sandbox’s server page, which only the machine running the app can open.'
      }</p>
<form method="post" action="${BASE}/oauth2/authorize">${fields}<button type="submit" name="decision" value="cancel">Cancel</button></form>`
}`,
          user,
        );
      }

      // prompt=none: someone who granted all of this before is sent straight back, as on Discord.
      if (q.prompt === 'none' && user && (await sandbox.granted(user.id, scopes))) {
        const code = await sandbox.createCode({
          userId: user.id,
          redirectUri: q.redirect_uri,
          scopes,
          guildId: null,
        });
        return reply.redirect(withCode(redirect, code, q.state), 303);
      }

      const items = scopes
        .map((s, i) =>
          s === 'identify'
            ? `<label class="check" for="scope-${i}"><input type="checkbox" id="scope-${i}" checked disabled> ${esc(SCOPES[s]!)} <span class="muted">(required)</span></label>`
            : `<label class="check" for="scope-${i}"><input type="checkbox" id="scope-${i}" name="grant" value="${esc(s)}" checked> ${esc(SCOPES[s]!)}</label>`,
        )
        .join('');
      return html(
        reply,
        `Authorize ${SANDBOX_APP_NAME}`,
        `<h1>${SANDBOX_APP_NAME} wants to access your Discord account</h1>
<form method="post" action="${BASE}/oauth2/authorize">${fields}
<label for="username">Signed in as</label>
<input type="text" id="username" name="username" required pattern="[A-Za-z0-9_.]{2,32}" autocomplete="username" value="${esc(user?.username ?? '')}">
<p class="muted">Any name works: a sandbox account is created the first time it is used.</p>
<fieldset><legend>This will allow ${SANDBOX_APP_NAME} to:</legend>${items}</fieldset>
<p class="muted">You will be sent to ${esc(redirect.origin)}.</p>
<div class="row"><button type="submit" name="decision" value="authorize" class="primary">Authorize</button>
<button type="submit" name="decision" value="cancel" formnovalidate>Cancel</button></div></form>`,
        user,
      );
    },
  );

  routes.post(
    '/sandbox/discord/oauth2/authorize',
    { schema: { hide: true } },
    async (req, reply) => {
      const body = form(req);
      const parsed = authorizeQuery.safeParse(
        Object.fromEntries([...body.entries()].filter(([k]) => k in authorizeQuery.shape)),
      );
      const user = await signedIn(req);
      if (!parsed.success)
        return html(reply, 'Invalid request', '<h1>Invalid request</h1>', user, 400);
      const q = parsed.data;
      const checked = checkAuthorize(req, reply, q, user);
      if (!('scopes' in checked)) return checked;
      const { redirect, scopes } = checked;

      if (body.get('decision') !== 'authorize') {
        redirect.searchParams.set('error', 'access_denied');
        redirect.searchParams.set(
          'error_description',
          'The resource owner or authorization server denied the request',
        );
        if (q.state) redirect.searchParams.set('state', q.state);
        return reply.redirect(redirect.toString(), 303);
      }

      if (scopes.includes('bot')) {
        const guildId = body.get('guild_id') ?? '';
        const owned = user ? await sandbox.ownedGuilds(user.id) : [];
        const guild = owned.find((g) => g.id === guildId);
        if (!user || !guild)
          return html(reply, 'Choose a server', '<h1>Choose one of your servers</h1>', user, 400);
        const requested = q.permissions ? BigInt(q.permissions) : BOT_PERMISSIONS;
        let granted = 0n;
        for (const value of body.getAll('perm'))
          if (/^\d{1,20}$/.test(value)) granted |= BigInt(value) & requested;
        await sandbox.addBot(guild.id, granted);
        const code = await sandbox.createCode({
          userId: user.id,
          redirectUri: q.redirect_uri,
          scopes,
          guildId: guild.id,
        });
        return reply.redirect(
          withCode(redirect, code, q.state, {
            guild_id: guild.id,
            permissions: granted.toString(),
          }),
          303,
        );
      }

      const person = await sandbox.ensureUser(body.get('username') ?? '');
      if (!person) {
        return html(
          reply,
          'Sign in',
          `<h1>Sign in</h1><p class="error" role="alert">Use 2–32 letters, digits, “_” or “.” for the username.</p><p><a href="${BASE}/oauth2/authorize?${esc(new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined)).toString())}">Back</a></p>`,
          user,
          400,
        );
      }
      remember(reply, person);
      const chosen = new Set(body.getAll('grant'));
      const grantedScopes = scopes.filter((s) => s === 'identify' || chosen.has(s));
      const code = await sandbox.createCode({
        userId: person.id,
        redirectUri: q.redirect_uri,
        scopes: grantedScopes,
        guildId: null,
      });
      return reply.redirect(withCode(redirect, code, q.state), 303);
    },
  );

  /* Invites */

  const invalidInvite = (reply: FastifyReply, user: SandboxUser | null) =>
    html(
      reply,
      'Invite invalid',
      '<h1>Invite invalid</h1><p>This invite may be expired, or used up.</p>',
      user,
      404,
    );

  routes.get(
    '/sandbox/discord/invite/:code',
    { schema: { hide: true, params: inviteParams } },
    async (req, reply) => {
      const user = await signedIn(req);
      const invite = await sandbox.invite(req.params.code);
      const usable =
        invite &&
        (!invite.expiresAt || invite.expiresAt > new Date()) &&
        (!invite.maxUses || invite.uses < invite.maxUses);
      if (!usable) return invalidInvite(reply, user);
      const expires = invite.expiresAt
        ? `<p class="muted">Expires ${invite.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC${invite.maxUses ? `, ${invite.maxUses - invite.uses} ${invite.maxUses - invite.uses === 1 ? 'use' : 'uses'} left` : ''}.</p>`
        : '';
      return html(
        reply,
        `Join ${invite.guildName}`,
        `<h1>You’ve been invited to join ${esc(invite.guildName)}</h1>${expires}
<form method="post" action="${BASE}/invite/${esc(invite.code)}">
<label for="username">Signed in as</label>
<input type="text" id="username" name="username" required pattern="[A-Za-z0-9_.]{2,32}" autocomplete="username" value="${esc(user?.username ?? '')}">
<div class="row"><button type="submit" class="primary">Accept invite</button></div></form>`,
        user,
      );
    },
  );

  routes.post(
    '/sandbox/discord/invite/:code',
    { schema: { hide: true, params: inviteParams } },
    async (req, reply) => {
      const person = await sandbox.ensureUser(form(req).get('username') ?? '');
      if (!person) return reply.redirect(`${BASE}/invite/${req.params.code}`, 303);
      remember(reply, person);
      const invite = await sandbox.invite(req.params.code);
      const outcome = await sandbox.acceptInvite(req.params.code, person.id);
      if (outcome === 'invalid' || !invite) return invalidInvite(reply, person);
      return html(
        reply,
        invite.guildName,
        outcome === 'joined'
          ? `<h1>Welcome to ${esc(invite.guildName)}</h1><p>You joined the server.</p>`
          : `<h1>${esc(invite.guildName)}</h1><p>You are already a member of this server.</p>`,
        person,
      );
    },
  );
}
