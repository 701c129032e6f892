// The caller of an A2A request as the SDK's request handler carries it (its `User`, in the
// ServerCallContext): the platform's actor and the agent the endpoint serves. The SDK scopes its
// in-process stores by an owner string; ours names the organization, the user and the agent, so a
// task, or the event bus of a running one, is only ever found by the one who made it, through the
// agent that made it.
import { ServerCallContext, type User } from '@a2a-js/sdk/server';
import type { Actor } from '../auth/actor.js';
import type { PreparedAsk } from '../runtime/ask.service.js';

export class A2aCaller implements User {
  constructor(
    readonly actor: Actor,
    readonly agentId: number,
  ) {}

  get isAuthenticated(): boolean {
    return true;
  }

  get userName(): string {
    return `organization-${this.actor.organizationId}/user-${this.actor.userId}`;
  }
}

/** What one JSON-RPC call carries beside its caller, for the executor: set by the route and the request handler. */
export interface A2aCallState {
  /** The ask, prepared before the SDK opens a task (a bad one answers a JSON-RPC error, nothing recorded). */
  prepared?: PreparedAsk;
  /** true for SendStreamingMessage (message/stream): the answer is told as it comes. */
  streaming?: boolean;
  /** Aborted when the client goes before the answer is written: the model call stops, as on every door. */
  clientSignal: AbortSignal;
}

const CALL_STATE = 'platform.a2a.call';

export function newCallContext(caller: A2aCaller, requestedVersion: string | undefined, clientSignal: AbortSignal): ServerCallContext {
  const state = new Map<string, unknown>([[CALL_STATE, { clientSignal } satisfies A2aCallState]]);
  return new ServerCallContext({ user: caller, state, ...(requestedVersion === undefined ? {} : { requestedVersion }) });
}

export function callerOf(context: ServerCallContext): A2aCaller {
  const user = context.user;
  if (!(user instanceof A2aCaller)) throw new Error('An A2A call without its platform caller');
  return user;
}

export function callStateOf(context: ServerCallContext): A2aCallState {
  const state = context.state.get(CALL_STATE) as A2aCallState | undefined;
  if (!state) throw new Error('An A2A call without its state');
  return state;
}

/** The owner of tasks and event buses: one caller through one agent. */
export function ownerOf(context: ServerCallContext): string {
  const caller = callerOf(context);
  return `${caller.userName}/agent-${caller.agentId}`;
}
