// The real server started as a user starts it (`agent-platform serve`, through tsx), for tests of the
// process itself: signals, a kill, a restart. Ready when it says so, not after a guessed wait.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface CliServer {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
}

/**
 * Starts `serve` on a port the system picks (PORT 0), logging at `info`, and resolves with its
 * address once the server logs that it listens (after its migrations and start-up); rejects with
 * what it wrote to stderr if it exits first. stdout is read to the end, so the request lines logged
 * meanwhile never fill the pipe.
 */
export function startCliServer(env: Record<string, string | undefined>): Promise<CliServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const base = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      if (base) resolve({ child, base });
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened:\n${stderr}`)));
  });
}

/**
 * Starts `serve` as above with the settings of `env` (the log level and format among them), keeping
 * everything it writes, stdout and stderr, in `output`: for tests that search the whole log.
 */
export function startServerKeepingOutput(env: Record<string, string>, output: string[]): Promise<CliServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      const listening = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output.join(''));
      if (listening) resolve({ child, base: listening[1]! });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${output.join('')}`)));
  });
}
