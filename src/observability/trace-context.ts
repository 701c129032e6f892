// Which app a span belongs to. Each app has its own tracer provider (tests build many apps in one
// process), but the instrumented libraries (pg, undici) are patched once for the whole process: so
// the context of a traced request carries its app's provider, and every span started below it (a
// statement, an outgoing request, a model call) goes to that provider. Outside a traced request
// (start-up, the worker's polling, and always when tracing is off) no span is made at all.
import {
  context,
  createContextKey,
  trace,
  ProxyTracerProvider,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerOptions,
  type TracerProvider,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { SERVER_VERSION } from '../version.js';

const APP_TRACER_PROVIDER = createContextKey('agent-platform: the tracer provider of the app serving the request');

/** Answers every call with a span that records nothing. */
const noTracer = new ProxyTracerProvider().getTracer('agent-platform');

let contextPropagated = false;

/**
 * Carries the active context across awaits, timers and callbacks (AsyncLocalStorage), for the whole
 * process; set when the first app with tracing starts, never when tracing is off (on Node 20 and 22
 * AsyncLocalStorage turns on promise hooks, a cost every await then pays).
 */
export function propagateContext(): void {
  if (contextPropagated) return;
  contextPropagated = context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

/** The context of a request's span: the span is the parent of what runs within, for the app's provider. */
export function requestContext(parent: Context, span: Span, provider: TracerProvider): Context {
  return trace.setSpan(parent, span).setValue(APP_TRACER_PROVIDER, provider);
}

/** Our tracer for the request being served; undefined outside traced requests. */
export function tracerOfRequest(ctx: Context = context.active()): Tracer | undefined {
  const provider = ctx.getValue(APP_TRACER_PROVIDER) as TracerProvider | undefined;
  return provider?.getTracer('agent-platform', SERVER_VERSION);
}

/** A tracer that starts its spans with the provider of the request in whose context they start. */
class RequestTracer implements Tracer {
  constructor(
    private readonly name: string,
    private readonly version: string | undefined,
    private readonly options: TracerOptions | undefined,
  ) {}

  private tracerFor(ctx: Context): Tracer {
    const provider = ctx.getValue(APP_TRACER_PROVIDER) as TracerProvider | undefined;
    return provider?.getTracer(this.name, this.version, this.options) ?? noTracer;
  }

  startSpan(name: string, options?: SpanOptions, ctx: Context = context.active()): Span {
    return this.tracerFor(ctx).startSpan(name, options, ctx);
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]): ReturnType<F> {
    const fn = rest.at(-1) as F;
    const options = rest.length > 1 ? (rest[0] as SpanOptions) : undefined;
    const ctx = rest.length > 2 ? (rest[1] as Context) : context.active();
    const span = this.startSpan(name, options, ctx);
    return context.with(trace.setSpan(ctx, span), () => fn(span)) as ReturnType<F>;
  }
}

/** For the instrumentations of libraries, which are given one provider for the whole process. */
export const requestTracerProvider: TracerProvider = {
  getTracer: (name, version, options) => new RequestTracer(name, version, options),
};
