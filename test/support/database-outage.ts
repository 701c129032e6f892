// A PostgreSQL outage confined to one scratch database, for the tests of connection loss. The app
// connects through a loopback TCP relay; an outage terminates the database's server processes (as
// an administrator or a restart would: the server's own FATAL message on every open connection) and
// makes the relay drop every new connection until the outage ends. The shared server, and the
// other test files on it, are never touched.
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

export interface DatabaseOutage {
  /** The scratch database's URL, through the relay. */
  url: string;
  /** Returns once every server process of the database has ended and new connections are refused. */
  begin(): Promise<void>;
  end(): void;
  close(): Promise<void>;
}

export async function relayWithOutages(databaseUrl: string): Promise<DatabaseOutage> {
  const target = new URL(databaseUrl);
  const databaseName = target.pathname.slice(1);
  const sockets = new Set<Socket>();
  let down = false;

  const relay = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const server = connect(Number(target.port || 5432), target.hostname);
    for (const [socket, other] of [
      [client, server],
      [server, client],
    ] as const) {
      sockets.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        other.end();
      });
    }
    client.pipe(server).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const through = new URL(databaseUrl);
  through.hostname = '127.0.0.1';
  through.port = String((relay.address() as AddressInfo).port);

  // Straight to the server (its maintenance database), not through the relay.
  const admin = new pg.Client({ connectionString: Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString() });
  await admin.connect();

  return {
    url: through.toString(),
    begin: async () => {
      down = true;
      // pg_terminate_backend with a timeout returns once the process has ended (false if it has not
      // within it), so nothing here polls. Only the app's connections count (an autovacuum worker may
      // come and go on the database meanwhile).
      const { rows } = await admin.query<{ ended: boolean }>(
        "select pg_terminate_backend(pid, 30000) as ended from pg_stat_activity where datname = $1 and backend_type = 'client backend'",
        [databaseName],
      );
      const left = rows.filter((row) => !row.ended).length;
      if (left > 0) throw new Error(`${left} server processes of ${databaseName} did not end`);
      // A connection the relay still holds is cut: to the app, the same loss as the server's own end.
      for (const socket of sockets) socket.destroy();
    },
    end: () => {
      down = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await admin.end();
    },
  };
}
