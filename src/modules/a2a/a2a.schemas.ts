// The A2A door in the OpenAPI document: the path parameter, the two shapes of an agent's card, the
// JSON-RPC request and answer, and the events of a streamed answer. The bodies are the protocol's
// (A2A 1.0, or 0.3 through the SDK's compatibility layer), written by the SDK: the schemas name the
// fields this server sends and leave the rest open, since the protocol's objects are the SDK's to shape.
import { Type } from '@sinclair/typebox';
import { eventStreamResponse, StreamEvent, StreamEventUnion } from '../../http/event-streams.js';
import { named } from '../../http/schemas.js';

export const A2aAgentParams = Type.Object({
  agent_id: Type.String({
    pattern: '^[a-z0-9][a-z0-9-]{0,62}$',
    description: 'The agent’s alias, or its id (an alias is looked for first, as the OpenAI-compatible door does)',
  }),
});

const Modes = Type.Array(Type.String(), { description: 'Media types' });
const Skill = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  examples: Type.Optional(Type.Array(Type.String(), { description: 'The agent’s conversation starters (absent in A2A 1.0 where it has none)' })),
  inputModes: Modes,
  outputModes: Modes,
});
const Provider = Type.Object({ organization: Type.String(), url: Type.String() });

const AgentCardV1 = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    supportedInterfaces: Type.Array(
      Type.Object({
        url: Type.String({ description: 'The agent’s JSON-RPC endpoint: POST /api/v2/a2a/agents/{agent_id}' }),
        protocolBinding: Type.Literal('JSONRPC'),
        protocolVersion: Type.String({ description: '1.0, and 0.3 on the same endpoint' }),
      }),
    ),
    provider: Provider,
    version: Type.String({ description: 'The agent’s version (it increments on every change)' }),
    capabilities: Type.Object({ streaming: Type.Literal(true), pushNotifications: Type.Literal(false), extendedAgentCard: Type.Literal(false) }),
    securitySchemes: Type.Object({ bearer: Type.Object({ httpAuthSecurityScheme: Type.Object({ scheme: Type.Literal('Bearer'), description: Type.String() }) }) }),
    securityRequirements: Type.Array(Type.Object({ schemes: Type.Object({ bearer: Type.Object({}) }) })),
    defaultInputModes: Modes,
    defaultOutputModes: Modes,
    skills: Type.Array(Skill, { minItems: 1, maxItems: 1 }),
  },
  { description: 'The card in A2A 1.0 (asked for with A2A-Version: 1.0)' },
);

const AgentCardV03 = Type.Object(
  {
    protocolVersion: Type.Literal('0.3'),
    name: Type.String(),
    description: Type.String(),
    url: Type.String({ description: 'The agent’s JSON-RPC endpoint: POST /api/v2/a2a/agents/{agent_id}' }),
    preferredTransport: Type.Literal('JSONRPC'),
    provider: Provider,
    version: Type.String({ description: 'The agent’s version (it increments on every change)' }),
    capabilities: Type.Object({ streaming: Type.Literal(true), pushNotifications: Type.Literal(false) }),
    securitySchemes: Type.Object({ bearer: Type.Object({ type: Type.Literal('http'), scheme: Type.Literal('bearer'), description: Type.String() }) }),
    security: Type.Array(Type.Object({ bearer: Type.Array(Type.String(), { maxItems: 0 }) })),
    defaultInputModes: Modes,
    defaultOutputModes: Modes,
    skills: Type.Array(Skill, { minItems: 1, maxItems: 1 }),
  },
  { description: 'The card in A2A 0.3 (asked for without A2A-Version, or with 0.3)' },
);

export const A2aAgentCardSchema = named('A2aAgentCard', Type.Union([AgentCardV1, AgentCardV03], { description: 'An agent’s A2A card, in the protocol version asked for' }));

const RequestId = Type.Union([Type.String(), Type.Integer(), Type.Null()], { description: 'The id of the request, echoed' });
const JsonRpcError = Type.Object(
  {
    code: Type.Integer({ description: 'JSON-RPC and A2A codes: -32602 invalid params (a bad message, an unknown or foreign contextId), -32001 task not found, -32002 task not cancelable, -32004 unsupported operation, -32005 content type not supported, -32009 version not supported, …' }),
    message: Type.String(),
    data: Type.Optional(Type.Unknown()),
  },
  { description: 'The error of a call' },
);

export const A2aJsonRpcRequestSchema = named(
  'A2aJsonRpcRequest',
  Type.Object(
    {
      jsonrpc: Type.Literal('2.0'),
      id: Type.Optional(RequestId),
      method: Type.String({
        description: 'A2A 1.0: SendMessage, SendStreamingMessage, GetTask, CancelTask. A2A 0.3 (no A2A-Version header): message/send, message/stream, tasks/get, tasks/cancel',
      }),
      params: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The method’s parameters, as the protocol defines them' })),
    },
    { description: 'A JSON-RPC 2.0 request of the A2A protocol' },
  ),
);

const JsonRpcResult = Type.Object({ jsonrpc: Type.Literal('2.0'), id: RequestId, result: Type.Unknown({ description: 'A Task or a Message (send), a Task (get, cancel); in a stream, a task, a status update or an artifact update' }) });
const JsonRpcFailure = Type.Object({ jsonrpc: Type.Literal('2.0'), id: RequestId, error: JsonRpcError });

export const A2aJsonRpcResponseSchema = named('A2aJsonRpcResponse', Type.Union([JsonRpcResult, JsonRpcFailure], { description: 'The JSON-RPC answer: a result or an error' }));

const A2aStreamEventSchema = StreamEventUnion(
  'A2aStreamEvent',
  [
    StreamEvent('A2aStreamResult', 'message', JsonRpcResult, { id: false, description: 'A JSON-RPC answer whose result is a task, a status update or an artifact update' }),
    StreamEvent('A2aStreamError', 'error', JsonRpcFailure, { id: true, description: 'The stream failed after it began: a JSON-RPC error, and the stream ends' }),
  ],
  'One event of a streamed A2A answer',
);

const taskId = '5f0c1f7e-3a9b-4c55-9d1e-2b8f6f0a7c11';

/** The 200 answer of SendStreamingMessage (message/stream). */
export const a2aStreamResponse = eventStreamResponse(
  'SendStreamingMessage (message/stream): Server-Sent Events of data alone, each a JSON-RPC answer with the request’s id. The task (working, its ' +
    'contextId the thread’s id), artifact updates of the answer as it is generated (append: true), the whole answer with its citations as a ' +
    'data part (append: false, lastChunk: true), then the final status (completed, rejected, failed or canceled). An error after the stream ' +
    'began is an event named error carrying a JSON-RPC error.',
  A2aStreamEventSchema,
  `data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"${taskId}","contextId":"42","status":{"state":"TASK_STATE_WORKING"}}}}\n\n` +
    `data: {"jsonrpc":"2.0","id":1,"result":{"artifactUpdate":{"taskId":"${taskId}","contextId":"42","artifact":{"artifactId":"answer","parts":[{"text":"Refunds take"}]}}}}\n\n` +
    `data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"${taskId}","contextId":"42","status":{"state":"TASK_STATE_COMPLETED"}}}}\n\n`,
  {
    status: { event: 'message', data: { jsonrpc: '2.0', id: 1, result: { statusUpdate: { taskId, contextId: '42', status: { state: 'TASK_STATE_COMPLETED' } } } } },
    error: { event: 'error', id: '4', data: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'The server failed while answering' } } },
  },
);
