// What the A2A routes do with the official SDK: an agent's card, and a JSON-RPC call answered by the
// SDK's request handler. a2a.routes.ts loads this module at the first A2A request, so a start does
// not load the A2A SDK (docs/performance.md "Suite start").
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { DefaultExecutionEventBusManager } from '@a2a-js/sdk/server';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { Actor } from '../auth/actor.js';
import type { AgentWithUsers } from '../agents/agents.repo.js';
import type { AskService } from '../runtime/ask.service.js';
import { A2aCaller, newCallContext, ownerOf } from './a2a-caller.js';
import { PlatformRequestHandler, type A2aDoorParts } from './a2a-request-handler.js';
import { cardJson, coreAgentCard, legacyCardJson } from './agent-card.js';
import { PlatformAgentExecutor } from './agent-executor.js';
import { answerJsonRpc } from './json-rpc-reply.js';
import { TransientTaskStore } from './transient-task-store.js';

/** The door of one app: its executor, tasks and event buses, shared by its requests. */
export function openA2aDoor(asks: AskService, log: FastifyBaseLogger) {
  const parts: A2aDoorParts = {
    asks,
    executor: new PlatformAgentExecutor(asks, log),
    tasks: new TransientTaskStore(),
    buses: new DefaultExecutionEventBusManager(ownerOf),
  };
  return {
    /** The card in A2A 0.3 unless the request names another version. */
    card(agent: AgentWithUsers, origin: string, requestedVersion: string | undefined): Record<string, unknown> {
      const legacy = (requestedVersion ?? A2A_LEGACY_PROTOCOL_VERSION) === A2A_LEGACY_PROTOCOL_VERSION;
      return legacy ? legacyCardJson(agent, origin) : cardJson(coreAgentCard(agent, origin));
    },
    call(agent: AgentWithUsers, actor: Actor, origin: string, requestedVersion: string | undefined, clientGone: AbortSignal, body: unknown, reply: FastifyReply, requestLog: FastifyBaseLogger) {
      const handler = new PlatformRequestHandler(coreAgentCard(agent, origin), parts, requestLog);
      const context = newCallContext(new A2aCaller(actor, agent.id), requestedVersion, clientGone);
      return answerJsonRpc(handler, body, context, reply);
    },
  };
}
