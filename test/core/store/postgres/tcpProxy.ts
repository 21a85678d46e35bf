// A TCP proxy on 127.0.0.1 in front of a PostgreSQL server, for tests of a network that fails without a reset:
// `cut()` stops forwarding — what either side sends is dropped — and closes nothing, as a cut cable or a stalled
// VPN would; `restore()` forwards again.
import { createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops forwarding: what either side sends is dropped, no connection is closed. */
  cut(): void;
  /** Forwards again. */
  restore(): void;
  close(): Promise<void>;
}

export async function startProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let cut = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new (client.constructor as typeof Socket)();
    upstream.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => {
      if (!cut) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!cut) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    cut: () => {
      cut = true;
    },
    restore: () => {
      cut = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
