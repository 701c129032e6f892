import { createServer } from 'node:net';

export const LOOPBACK = '127.0.0.1';

/**
 * A TCP port on the loopback interface that nothing listens on now. The child server binds it a
 * moment later; another process could take it in between, in which case the child fails to start
 * and says so.
 */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('could not read the port given by the system'))));
    });
  });
}
