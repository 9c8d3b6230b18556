import net from 'node:net';

/**
 * A loopback TCP proxy that can turn into a black hole: bytes in either direction vanish, new
 * connections are accepted and never answered, and nothing is closed or reset, as when a network
 * path to the database silently drops packets.
 */
export interface BlackholeProxy {
  port: number;
  blackhole(): void;
  /** Forwards again for new connections; connections that lost bytes stay dead and are closed. */
  heal(): void;
  close(): Promise<void>;
}

export async function startBlackholeProxy(target: {
  host: string;
  port: number;
}): Promise<BlackholeProxy> {
  let blackholed = false;
  const links = new Set<{ client: net.Socket; upstream: net.Socket | null; dead: boolean }>();

  const server = net.createServer((client) => {
    const link = { client, upstream: null as net.Socket | null, dead: blackholed };
    links.add(link);
    const drop = () => {
      link.client.destroy();
      link.upstream?.destroy();
      links.delete(link);
    };
    client.on('error', drop).on('close', drop);
    if (link.dead) {
      client.on('data', () => undefined);
      return;
    }
    const upstream = net.connect(target.port, target.host);
    link.upstream = upstream;
    upstream.on('error', drop).on('close', drop);
    client.on('data', (chunk) => {
      if (!link.dead) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!link.dead) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    port: (server.address() as net.AddressInfo).port,
    blackhole() {
      blackholed = true;
      for (const link of links) link.dead = true;
    },
    heal() {
      blackholed = false;
      for (const link of [...links])
        if (link.dead) {
          link.client.destroy();
          link.upstream?.destroy();
          links.delete(link);
        }
    },
    async close() {
      for (const link of links) {
        link.client.destroy();
        link.upstream?.destroy();
      }
      links.clear();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
