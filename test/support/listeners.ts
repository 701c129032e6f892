// Loopback HTTP listeners for the egress tests. Each counts the TCP connections it accepts, so a test
// can say "this listener received nothing" rather than only "the client threw".
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listener {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  connections(): number;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

function listenOn(server: Server, host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });
}

/**
 * A listener on 127.0.0.1 (and on [::1] at the same port where the machine has IPv6 loopback).
 * Without a handler it answers 200 "ok".
 */
export async function startListener(handler?: Handler): Promise<Listener> {
  let connections = 0;
  const requests: IncomingMessage[] = [];
  const servers: Server[] = [];
  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    requests.push(request);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => (handler ? handler(request, response, Buffer.concat(chunks)) : response.end('ok')));
  };
  const make = () => {
    const server = createServer(onRequest);
    server.on('connection', () => connections++);
    servers.push(server);
    return server;
  };
  const v4 = make();
  await listenOn(v4, '127.0.0.1', 0);
  const port = (v4.address() as AddressInfo).port;
  if (!(await listenOn(make(), '::1', port))) servers.pop();
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    connections: () => connections,
    requests,
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
