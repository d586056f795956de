import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pngOf } from './png';

const listen = (server: Server, port: number, host: string) =>
  new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });

/**
 * A listener on loopback that must never be asked anything: it answers a real PNG, so if the
 * server ever fetched from it the picture would be imported and the breach would show. It listens
 * on 127.0.0.1 and, where the machine has IPv6 loopback, on [::1] at the same port.
 */
export async function startCanary(handler?: (req: IncomingMessage, res: ServerResponse) => void) {
  const requests: string[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.headers.host}${req.url}`);
    if (handler) return handler(req, res);
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(pngOf(4, [255, 0, 0]));
  };
  const v4 = createServer(handle);
  await listen(v4, 0, '127.0.0.1');
  const port = (v4.address() as AddressInfo).port;
  const v6 = createServer(handle);
  const hasV6 = await listen(v6, port, '::1');
  return {
    port,
    hasV6,
    /** Every request any of its listeners received. */
    requests,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const server of hasV6 ? [v4, v6] : [v4]) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      }
    },
  };
}

export type Canary = Awaited<ReturnType<typeof startCanary>>;
