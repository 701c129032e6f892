// autocannon ships no types. This declares only the part of its programmatic API the benchmarks
// use: one run with a callback, and the tracker's per-response event (for exact latencies).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    /** One request as autocannon builds it; setupRequest returns it changed. */
    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface Options {
      url: string;
      method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds a request may take before it counts as a timeout. */
      timeout?: number;
      pipelining?: number;
      /** Requests made in turn; setupRequest may change each before it is sent. */
      requests?: { setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams }[];
      title?: string;
    }

    /** Summary of one histogram; percentiles are keyed p50, p90, p97_5, p99, p99_9… */
    interface HistogramSummary {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total?: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      title?: string;
      url: string;
      connections: number;
      /** Seconds the run actually took. */
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: HistogramSummary;
      requests: HistogramSummary & { total: number; sent: number };
      throughput: HistogramSummary;
    }

    interface Instance extends EventEmitter {
      stop(): void;
      /** responseTime is in milliseconds, with sub-millisecond precision. */
      on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;

  export = autocannon;
}
