// What a stopping process still has to finish, told in the log: when the stop begins (what it waits
// for) and, if the grace runs out, what the exit cuts. Requests by method and URL, the streaming ones
// (answers, document events) marked, and the worker's jobs by id and name.
import type { App } from '../app.js';
import type { OpenRequest } from './requests-in-flight.js';

export interface WorkInFlight {
  requests: OpenRequest[];
  /** Of the requests, those answering with a stream of events. */
  streaming: number;
  jobs: { id: number; name: string }[];
}

export function workInFlight(app: App): WorkInFlight {
  const requests = app.requestsInFlight.list();
  return { requests, streaming: requests.filter((request) => request.streaming).length, jobs: app.services.worker.runningJobs() };
}

/** Requests named in a log message; the log line's fields carry them all. */
const NAMED_REQUESTS = 5;

/** "2 requests, 1 streaming [POST /api/v2/agents/7/responses (streaming), 3.2 s; …] and 1 job [document.process 42]", or "nothing". */
export function describeWork(work: WorkInFlight): string {
  if (work.requests.length === 0 && work.jobs.length === 0) return 'nothing';
  const parts: string[] = [];
  if (work.requests.length > 0) {
    const named = work.requests.slice(0, NAMED_REQUESTS).map((r) => `${r.method} ${r.url}${r.streaming ? ' (streaming)' : ''}, ${r.seconds} s`);
    if (work.requests.length > NAMED_REQUESTS) named.push('…');
    parts.push(`${count(work.requests.length, 'request')}${work.streaming > 0 ? `, ${work.streaming} streaming` : ''} [${named.join('; ')}]`);
  }
  if (work.jobs.length > 0) parts.push(`${count(work.jobs.length, 'job')} [${work.jobs.map((job) => `${job.name} ${job.id}`).join('; ')}]`);
  return parts.join(' and ');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
