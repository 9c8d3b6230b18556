import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  ChannelType,
  GatewayCloseCodes,
  type ApplicationFlags,
  type ChannelFlags,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
  type APIGatewayBotInfo,
  type GatewayDispatchPayload,
  type GatewayGuildCreateDispatch,
  type GatewayGuildCreateDispatchData,
  type GatewayGuildMemberAddDispatch,
  type GatewayGuildMemberRemoveDispatch,
  type GatewayGuildMemberUpdateDispatch,
  type GatewayHeartbeatAck,
  type GatewayHello,
  type GatewayInvalidSession,
  type GatewayReadyDispatch,
  type GatewayReceivePayload,
  type GatewayResumedDispatch,
} from 'discord-api-types/v10';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { safeEqual } from '../../lib.ts';
import type { SandboxChange, SandboxDiscord } from './sandbox.ts';
import { guildJson, memberJson, userJson } from './sandbox-json.ts';

/*
 * The sandbox's gateway (ADR 030): Discord's gateway v10 with JSON encoding, on the app's own port
 * at `/sandbox/discord/gateway`, so @discordjs/ws connects to it as to Discord. HELLO, IDENTIFY
 * (token, intents, shard), HEARTBEAT/ACK, READY and GUILD_CREATE, RESUME with the missed dispatches
 * replayed by sequence number, INVALID_SESSION, Discord's close codes, and GUILD_MEMBER_ADD, _UPDATE
 * and _REMOVE for every change in a server the bot is in (the API's, the pages', a role removed by
 * hand). Sessions live in this process's memory, as the sockets do.
 */

export const SANDBOX_GATEWAY_PATH = '/sandbox/discord/gateway';

/** Discord's own interval; tests shorten it to see heartbeats soon. */
const HEARTBEAT_INTERVAL_MS = 41_250;
/** Dispatches kept per session for RESUME; a client further behind identifies again. */
const REPLAY_LIMIT = 1000;
/** How long a session whose socket closed may still be resumed. */
const RESUME_WINDOW_MS = 5 * 60_000;
/** Discord's: 120 gateway commands per connection per 60 s, then close 4008. */
const COMMANDS_PER_MINUTE = 120;
/** Discord's daily budget of IDENTIFYs, reported by `GET /gateway/bot`. */
const SESSION_STARTS_PER_DAY = 1000;

const ALL_INTENTS = Object.values(GatewayIntentBits)
  .filter((v): v is number => typeof v === 'number')
  .reduce((a, b) => a | b, 0);

interface Session {
  id: string;
  intents: number;
  shard: [number, number];
  seq: number;
  /** Dispatches sent, oldest first, for RESUME to replay. */
  sent: GatewayDispatchPayload[];
  connection: Connection | null;
  /** When its last socket closed; forgotten after RESUME_WINDOW_MS. */
  idleSince: number | null;
}

interface Connection {
  ws: WebSocket;
  session: Session | null;
  /** IDENTIFY or RESUME under way: a second one is refused. */
  authenticating: boolean;
  lastHeartbeat: number;
  /** This gateway's URL as the client reached it: READY's `resume_gateway_url`. */
  url: string;
  commands: { count: number; windowStart: number };
}

export interface GatewayStats {
  connections: number;
  sessions: number;
  identifies: number;
  resumes: number;
  heartbeats: number;
  dispatches: number;
  replayed: number;
}

type Dispatch = (s: number) => GatewayDispatchPayload;

export class SandboxGateway {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  private readonly sessions = new Map<string, Session>();
  private readonly connections = new Set<Connection>();
  private readonly identifyTimes: number[] = [];
  private readonly counts = {
    identifies: 0,
    resumes: 0,
    heartbeats: 0,
    dispatches: 0,
    replayed: 0,
  };
  private heartbeatIntervalMs = HEARTBEAT_INTERVAL_MS;
  private sweeper: NodeJS.Timeout | null = null;
  /** Upgrades waiting while the test control holds new connections back. */
  private held: Array<() => void> | null = null;
  private readonly unsubscribe: () => void;

  constructor(private readonly sandbox: SandboxDiscord) {
    this.unsubscribe = sandbox.onChange((change) => void this.onChange(change));
    this.schedule();
  }

  /** Serves the gateway on `server`'s upgrades to SANDBOX_GATEWAY_PATH; returns the detach. */
  attach(server: Server): () => void {
    const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      if (url.pathname !== SANDBOX_GATEWAY_PATH) {
        // Nothing else on this port speaks WebSocket.
        if (server.listenerCount('upgrade') === 1) socket.destroy();
        return;
      }
      if (this.held) {
        this.held.push(() => onUpgrade(req, socket, head));
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) =>
        this.open(ws, url.searchParams, gatewayUrl(req)),
      );
    };
    server.on('upgrade', onUpgrade);
    return () => server.off('upgrade', onUpgrade);
  }

  /** What `GET /gateway/bot` answers: one shard, and the IDENTIFY budget left today. */
  botInfo(url: string): APIGatewayBotInfo {
    const now = Date.now();
    const day = 24 * 3600_000;
    while (this.identifyTimes.length && this.identifyTimes[0]! <= now - day)
      this.identifyTimes.shift();
    const oldest = this.identifyTimes[0];
    return {
      url,
      shards: 1,
      session_start_limit: {
        total: SESSION_STARTS_PER_DAY,
        remaining: Math.max(0, SESSION_STARTS_PER_DAY - this.identifyTimes.length),
        reset_after: oldest === undefined ? 0 : oldest + day - now,
        max_concurrency: 1,
      },
    };
  }

  stats(): GatewayStats {
    return { connections: this.connections.size, sessions: this.sessions.size, ...this.counts };
  }

  setHeartbeatInterval(ms: number): void {
    this.heartbeatIntervalMs = ms;
    this.schedule();
  }

  /**
   * Cuts every connection as a network failure would (the sessions stay resumable); with `hold`,
   * new connections wait until `release`, so a test can change things while the client is away.
   */
  cut(options: { hold?: boolean } = {}): void {
    if (options.hold) this.held ??= [];
    for (const c of this.connections) c.ws.terminate();
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const resume of held) resume();
  }

  close(): void {
    this.unsubscribe();
    if (this.sweeper) clearInterval(this.sweeper);
    this.release();
    for (const c of this.connections) c.ws.terminate();
    this.wss.close();
  }

  /* Connections */

  private open(ws: WebSocket, params: URLSearchParams, url: string): void {
    const connection: Connection = {
      ws,
      url,
      session: null,
      authenticating: false,
      lastHeartbeat: Date.now(),
      commands: { count: 0, windowStart: Date.now() },
    };
    this.connections.add(connection);
    ws.on('close', () => this.closed(connection));
    ws.on('error', () => ws.terminate());
    // Discord serves v10 in JSON here (or ETF, or compressed): the sandbox speaks plain JSON only.
    if (params.get('v') !== '10')
      return ws.close(GatewayCloseCodes.InvalidAPIVersion, 'Invalid API version');
    if ((params.get('encoding') ?? 'json') !== 'json' || params.has('compress'))
      return ws.close(GatewayCloseCodes.DecodeError, 'The sandbox speaks uncompressed JSON');
    ws.on('message', (data, isBinary) => void this.receive(connection, data, isBinary));
    this.send(connection, {
      op: GatewayOpcodes.Hello,
      t: null,
      s: null,
      d: { heartbeat_interval: this.heartbeatIntervalMs },
    } satisfies GatewayHello);
  }

  private closed(connection: Connection): void {
    this.connections.delete(connection);
    const session = connection.session;
    if (session?.connection === connection) {
      session.connection = null;
      session.idleSince = Date.now();
    }
  }

  private send(connection: Connection, payload: GatewayReceivePayload): void {
    if (connection.ws.readyState === connection.ws.OPEN)
      connection.ws.send(JSON.stringify(payload));
  }

  private refuse(connection: Connection, code: GatewayCloseCodes, reason: string): void {
    connection.ws.close(code, reason);
  }

  private async receive(connection: Connection, data: RawData, isBinary: boolean): Promise<void> {
    const now = Date.now();
    const commands = connection.commands;
    if (now - commands.windowStart >= 60_000)
      Object.assign(commands, { count: 0, windowStart: now });
    if (++commands.count > COMMANDS_PER_MINUTE)
      return this.refuse(connection, GatewayCloseCodes.RateLimited, 'You are being rate limited.');
    let payload: { op?: unknown; d?: unknown };
    try {
      if (isBinary) throw new Error('binary');
      payload = JSON.parse(rawText(data)) as { op?: unknown; d?: unknown };
      if (typeof payload !== 'object' || payload === null) throw new Error('not an object');
    } catch {
      return this.refuse(
        connection,
        GatewayCloseCodes.DecodeError,
        'Error while decoding payload.',
      );
    }
    switch (payload.op) {
      case GatewayOpcodes.Heartbeat:
        connection.lastHeartbeat = now;
        this.counts.heartbeats += 1;
        return this.send(connection, {
          op: GatewayOpcodes.HeartbeatAck,
          d: undefined,
          t: null,
          s: null,
        } satisfies GatewayHeartbeatAck);
      case GatewayOpcodes.Identify:
        return this.identify(connection, payload.d);
      case GatewayOpcodes.Resume:
        return this.resume(connection, payload.d);
      case GatewayOpcodes.PresenceUpdate:
      case GatewayOpcodes.VoiceStateUpdate:
      case GatewayOpcodes.RequestGuildMembers:
      case GatewayOpcodes.RequestSoundboardSounds:
      case GatewayOpcodes.RequestChannelInfo:
        // Commands the sandbox accepts and does nothing with, once authenticated.
        if (!connection.session)
          return this.refuse(connection, GatewayCloseCodes.NotAuthenticated, 'Not authenticated.');
        return;
      default:
        return this.refuse(connection, GatewayCloseCodes.UnknownOpcode, 'Unknown opcode.');
    }
  }

  private tokenOk(token: unknown): boolean {
    if (typeof token !== 'string') return false;
    // Clients send the bare token; some prefix it as in the HTTP header.
    return safeEqual(token.replace(/^Bot\s+/i, ''), this.sandbox.botToken);
  }

  /** An Identify or Resume payload; null when it closed the connection (already in, bad token). */
  private credentials<T extends { token?: unknown }>(connection: Connection, d: unknown): T | null {
    if (connection.session || connection.authenticating) {
      this.refuse(connection, GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.');
      return null;
    }
    const data = (d ?? {}) as T;
    if (!this.tokenOk(data.token)) {
      this.refuse(connection, GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
      return null;
    }
    return data;
  }

  private async identify(connection: Connection, d: unknown): Promise<void> {
    const data = this.credentials<{ token?: unknown; intents?: unknown; shard?: unknown }>(
      connection,
      d,
    );
    if (!data) return;
    const intents = data.intents;
    if (
      typeof intents !== 'number' ||
      !Number.isInteger(intents) ||
      intents < 0 ||
      intents & ~ALL_INTENTS
    )
      return this.refuse(connection, GatewayCloseCodes.InvalidIntents, 'Invalid intent(s).');
    const shard = data.shard ?? [0, 1];
    if (
      !Array.isArray(shard) ||
      shard.length !== 2 ||
      !shard.every((n) => Number.isInteger(n)) ||
      shard[1] < 1 ||
      shard[0] < 0 ||
      shard[0] >= shard[1]
    )
      return this.refuse(connection, GatewayCloseCodes.InvalidShard, 'Invalid shard.');
    connection.authenticating = true;
    this.identifyTimes.push(Date.now());
    this.counts.identifies += 1;
    // Everything READY and GUILD_CREATE say is read first, then sent in one go: no change between.
    const guildIds = (await this.sandbox.botGuildIds()).filter((id) =>
      inShard(id, shard as [number, number]),
    );
    const creates =
      intents & GatewayIntentBits.Guilds
        ? (await Promise.all(guildIds.map((id) => this.guildCreate(id)))).filter((g) => g !== null)
        : [];
    if (connection.ws.readyState !== connection.ws.OPEN) return;
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      intents,
      shard: shard as [number, number],
      seq: 0,
      sent: [],
      connection,
      idleSince: null,
    };
    this.sessions.set(session.id, session);
    connection.session = session;
    connection.authenticating = false;
    this.dispatch(
      session,
      (s) =>
        ({
          op: GatewayOpcodes.Dispatch,
          t: GatewayDispatchEvents.Ready,
          s,
          d: {
            v: 10,
            user: userJson(this.sandbox.botUser),
            guilds: guildIds.map((id) => ({ id, unavailable: true })),
            session_id: session.id,
            resume_gateway_url: connection.url,
            shard: session.shard,
            application: {
              id: this.sandbox.clientId,
              flags: 0 as ApplicationFlags,
              flags_new: '0',
            },
          },
        }) satisfies GatewayReadyDispatch,
    );
    for (const d of creates) this.dispatchGuildCreate(session, d);
  }

  private resume(connection: Connection, d: unknown): void {
    const data = this.credentials<{ token?: unknown; session_id?: unknown; seq?: unknown }>(
      connection,
      d,
    );
    if (!data) return;
    const session =
      typeof data.session_id === 'string' ? this.sessions.get(data.session_id) : undefined;
    const seq = typeof data.seq === 'number' && Number.isInteger(data.seq) ? data.seq : null;
    const oldest = session?.sent[0]?.s ?? 1;
    // Unknown or forgotten session, or missed more than is kept: the client must identify again.
    if (!session || seq === null || seq < oldest - 1)
      return this.send(connection, {
        op: GatewayOpcodes.InvalidSession,
        d: false,
        t: null,
        s: null,
      } satisfies GatewayInvalidSession);
    if (seq > session.seq)
      return this.refuse(connection, GatewayCloseCodes.InvalidSeq, 'Invalid seq.');
    // A session has one socket: the newer connection takes it over.
    if (session.connection && session.connection !== connection) {
      const old = session.connection;
      old.session = null;
      old.ws.terminate();
    }
    session.connection = connection;
    session.idleSince = null;
    connection.session = session;
    this.counts.resumes += 1;
    for (const payload of session.sent) {
      if (payload.s <= seq) continue;
      this.counts.replayed += 1;
      this.send(connection, payload);
    }
    this.dispatch(
      session,
      (s) =>
        ({
          op: GatewayOpcodes.Dispatch,
          t: GatewayDispatchEvents.Resumed,
          s,
          d: undefined,
        }) satisfies GatewayResumedDispatch,
    );
  }

  /* Dispatches */

  private dispatchGuildCreate(session: Session, d: GatewayGuildCreateDispatchData): void {
    this.dispatch(
      session,
      (s) =>
        ({
          op: GatewayOpcodes.Dispatch,
          t: GatewayDispatchEvents.GuildCreate,
          s,
          d,
        }) satisfies GatewayGuildCreateDispatch,
    );
  }

  private dispatch(session: Session, build: Dispatch): void {
    session.seq += 1;
    const payload = build(session.seq);
    session.sent.push(payload);
    if (session.sent.length > REPLAY_LIMIT) session.sent.shift();
    this.counts.dispatches += 1;
    if (session.connection) this.send(session.connection, payload);
  }

  private async onChange(change: SandboxChange): Promise<void> {
    const wanting = (intent: GatewayIntentBits) =>
      [...this.sessions.values()].filter(
        (s) => s.intents & intent && inShard(change.guildId, s.shard),
      );
    switch (change.type) {
      case 'guild.join': {
        const sessions = wanting(GatewayIntentBits.Guilds);
        const d = sessions.length ? await this.guildCreate(change.guildId) : null;
        if (!d) return;
        for (const session of sessions) this.dispatchGuildCreate(session, d);
        return;
      }
      case 'member.add': {
        const d = { ...memberJson(change.member), guild_id: change.guildId };
        for (const session of wanting(GatewayIntentBits.GuildMembers))
          this.dispatch(
            session,
            (s) =>
              ({
                op: GatewayOpcodes.Dispatch,
                t: GatewayDispatchEvents.GuildMemberAdd,
                s,
                d,
              }) satisfies GatewayGuildMemberAddDispatch,
          );
        return;
      }
      case 'member.update': {
        const d = {
          ...memberJson(change.member),
          avatar: null,
          banner: null,
          guild_id: change.guildId,
        };
        for (const session of wanting(GatewayIntentBits.GuildMembers))
          this.dispatch(
            session,
            (s) =>
              ({
                op: GatewayOpcodes.Dispatch,
                t: GatewayDispatchEvents.GuildMemberUpdate,
                s,
                d,
              }) satisfies GatewayGuildMemberUpdateDispatch,
          );
        return;
      }
      case 'member.remove': {
        const d = { guild_id: change.guildId, user: userJson(change.user) };
        for (const session of wanting(GatewayIntentBits.GuildMembers))
          this.dispatch(
            session,
            (s) =>
              ({
                op: GatewayOpcodes.Dispatch,
                t: GatewayDispatchEvents.GuildMemberRemove,
                s,
                d,
              }) satisfies GatewayGuildMemberRemoveDispatch,
          );
        return;
      }
    }
  }

  /** GUILD_CREATE's data: the guild, its channels, and of its members the bot, as Discord sends. */
  private async guildCreate(guildId: string): Promise<GatewayGuildCreateDispatchData | null> {
    const sandbox = this.sandbox;
    const [guild, roles, channels, bot, memberCount] = await Promise.all([
      sandbox.guild(guildId),
      sandbox.roles(guildId),
      sandbox.channels(guildId),
      sandbox.member(guildId, sandbox.botId),
      sandbox.memberCount(guildId),
    ]);
    if (!guild || !bot) return null;
    return {
      ...guildJson(guild, roles, sandbox.botId),
      joined_at: new Date(bot.joinedAt).toISOString(),
      large: memberCount > 250,
      unavailable: false,
      member_count: memberCount,
      voice_states: [],
      members: [memberJson(bot)],
      channels: channels
        .filter((c) => c.type === ChannelType.GuildText)
        .map((c) => ({
          id: c.id,
          type: ChannelType.GuildText,
          guild_id: c.guildId,
          name: c.name,
          position: c.position,
          permission_overwrites: [],
          nsfw: false,
          parent_id: null,
          topic: null,
          last_message_id: null,
          rate_limit_per_user: 0,
          flags: 0 as ChannelFlags,
        })),
      threads: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }

  /* Timers */

  /** Closes connections that stopped heartbeating, and forgets sessions left unresumed. */
  private schedule(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    const interval = this.heartbeatIntervalMs;
    this.sweeper = setInterval(() => {
      const now = Date.now();
      // The first heartbeat may wait a whole interval (Discord's jitter); allow half more.
      for (const c of this.connections)
        if (now - c.lastHeartbeat > interval * 1.5 + 1000)
          this.refuse(c, GatewayCloseCodes.SessionTimedOut, 'Session timed out.');
      for (const [id, s] of this.sessions)
        if (s.idleSince !== null && now - s.idleSince > RESUME_WINDOW_MS) this.sessions.delete(id);
    }, interval);
    this.sweeper.unref();
  }
}

/**
 * The gateway's URL as a client reaches this app: `GET /gateway/bot` and READY name it. Behind a TLS
 * proxy (the sandbox environment) the forwarded protocol says `wss`.
 */
export function gatewayUrl(req: Pick<IncomingMessage, 'headers' | 'socket'>): string {
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]!
    .trim();
  const tls = 'encrypted' in req.socket && Boolean(req.socket.encrypted);
  const scheme = forwarded === 'https' || tls ? 'wss' : 'ws';
  return `${scheme}://${req.headers.host ?? '127.0.0.1'}${SANDBOX_GATEWAY_PATH}`;
}

/** Discord's routing of a guild to a shard: `(guild_id >> 22) % shard_count`. */
const inShard = (guildId: string, [id, count]: [number, number]) =>
  Number((BigInt(guildId) >> 22n) % BigInt(count)) === id;

const rawText = (data: RawData): string =>
  Array.isArray(data)
    ? Buffer.concat(data).toString('utf8')
    : Buffer.from(data as ArrayBuffer).toString('utf8');
