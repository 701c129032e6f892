// A server run in a child process, so that the load generator (this process) and the server under
// test each have their own event loop and core. Started, waited for, and stopped with SIGTERM (the
// graceful path the real server implements), with SIGKILL only if it does not stop in time.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { CleanupStack } from './cleanup.js';
import { LOOPBACK } from './free-port.js';
import { PROJECT_ROOT } from './project.js';

export interface ChildServerOptions {
  /** Name used in messages, e.g. "agent-platform". */
  label: string;
  /** Arguments to node: flags, the script, its arguments. */
  nodeArgs: string[];
  /**
   * The child's settings. Of this process's environment only PATH and TMPDIR are passed on, so that
   * a variable in the shell (DATABASE_URL, NODE_OPTIONS…) cannot change what is measured.
   */
  env: Record<string, string>;
  port: number;
  /** A GET on this path answers 200 once the server is ready. */
  readyPath: string;
  startTimeoutMs?: number;
  /** How often the ready path is asked; 100 ms unless a suite times the start itself. */
  readyPollMs?: number;
}

export interface ChildServer {
  readonly label: string;
  readonly baseUrl: string;
  readonly pid: number;
  /** The last lines the child wrote, to explain a failure. */
  outputTail(): string;
  /** Whether the child has exited, for whatever reason. */
  hasExited(): boolean;
  /** SIGTERM, then SIGKILL after the grace period; resolves once the child is gone. */
  stop(): Promise<void>;
}

const OUTPUT_LINES_KEPT = 40;
const STOP_GRACE_MS = 15_000;
const READY_POLL_MS = 100;

function childEnvironment(settings: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'TMPDIR']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...settings };
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (hasExited(child)) return true;
  const timeout = new Promise<false>((resolve) => setTimeout(resolve, timeoutMs, false).unref());
  return Promise.race([once(child, 'exit').then(() => true), timeout]);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  child.kill('SIGTERM');
  if (await waitForExit(child, STOP_GRACE_MS)) return;
  child.kill('SIGKILL');
  await waitForExit(child, 5_000);
}

/** Keeps the last lines of the child's output without letting its pipes fill up. */
function collectOutput(child: ChildProcess): () => string {
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter((line) => line.trim() !== ''));
    if (lines.length > OUTPUT_LINES_KEPT) lines.splice(0, lines.length - OUTPUT_LINES_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => lines.join('\n');
}

async function isReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

export async function startChildServer(options: ChildServerOptions, cleanup: CleanupStack): Promise<ChildServer> {
  const child = spawn(process.execPath, options.nodeArgs, {
    cwd: PROJECT_ROOT,
    env: childEnvironment(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanup.defer(`stop ${options.label}`, () => stopChild(child));
  const outputTail = collectOutput(child);
  const spawned = await Promise.race([once(child, 'spawn').then(() => true), once(child, 'error').then(() => false)]);
  if (!spawned || child.pid === undefined) throw new Error(`${options.label}: could not start ${process.execPath}`);

  const baseUrl = `http://${LOOPBACK}:${options.port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  while (!(await isReady(baseUrl + options.readyPath))) {
    if (hasExited(child)) {
      throw new Error(`${options.label} exited (code ${child.exitCode}, signal ${child.signalCode}) before it was ready:\n${outputTail()}`);
    }
    if (Date.now() > deadline) throw new Error(`${options.label} was not ready within ${options.startTimeoutMs ?? 30_000} ms:\n${outputTail()}`);
    await new Promise((resolve) => setTimeout(resolve, options.readyPollMs ?? READY_POLL_MS));
  }
  // Another process that took the port first (and answers the probe) would pass for the child.
  if (hasExited(child)) {
    throw new Error(`${options.label} exited (code ${child.exitCode}, signal ${child.signalCode}) although ${baseUrl} answered:\n${outputTail()}`);
  }

  return {
    label: options.label,
    baseUrl,
    pid: child.pid,
    outputTail,
    hasExited: () => hasExited(child),
    stop: () => stopChild(child),
  };
}
