// An agent's A2A card: who it is, where its JSON-RPC endpoint is, what it accepts and answers, and how
// to authenticate (the platform's bearer credentials: API keys and session tokens). The SDK speaks
// A2A 1.0 and, through its compatibility layer, 0.3; a card is asked for in one of the two (the
// A2A-Version header, 0.3 when absent, as the SDK's own card handler decides), and answered in its
// shape: the 1.0 card as the protocol's JSON (AgentCard.toJSON), the 0.3 card with its `url`,
// `protocolVersion` and `preferredTransport`.
import { AgentCard, A2A_PROTOCOL_VERSION, type AgentCard as CoreAgentCard } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import type { AgentWithUsers } from '../agents/agents.repo.js';

const INPUT_MODES = ['text/plain'];
/** The answer as text, its citations as data. */
const OUTPUT_MODES = ['text/plain', 'application/json'];
const BEARER_DESCRIPTION = 'An API key of the platform, or a session token from POST /api/v2/auth/login, as Authorization: Bearer <token>';
const BINDING = 'JSONRPC';

/** The path of an agent's JSON-RPC endpoint; its card is at <path>/.well-known/agent-card.json. */
export const a2aEndpointPath = (agentId: number) => `/api/v2/a2a/agents/${agentId}`;

type CardAgent = Pick<AgentWithUsers, 'id' | 'name' | 'description' | 'version' | 'conversation_starters'>;

const descriptionOf = (agent: CardAgent) => (agent.description.trim() === '' ? `${agent.name}, an agent of the platform` : agent.description);

function skillOf(agent: CardAgent) {
  return {
    id: 'ask',
    name: `Ask ${agent.name}`,
    description: 'Answers a question from its instructions, the documents of its corpora the caller may read, and its tools; the answer cites its sources',
    tags: ['question-answering', 'retrieval', 'citations'],
    examples: agent.conversation_starters,
    inputModes: INPUT_MODES,
    outputModes: OUTPUT_MODES,
  };
}

/** The card as the SDK's request handler holds it: both protocol versions declared on the one endpoint. */
export function coreAgentCard(agent: CardAgent, origin: string): CoreAgentCard {
  const url = `${origin}${a2aEndpointPath(agent.id)}`;
  return {
    name: agent.name,
    description: descriptionOf(agent),
    supportedInterfaces: [A2A_PROTOCOL_VERSION, A2A_LEGACY_PROTOCOL_VERSION].map((protocolVersion) => ({ url, protocolBinding: BINDING, tenant: '', protocolVersion })),
    provider: { organization: 'Agent Platform', url: origin },
    version: String(agent.version),
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: { bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { description: BEARER_DESCRIPTION, scheme: 'Bearer', bearerFormat: '' } } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: INPUT_MODES,
    defaultOutputModes: OUTPUT_MODES,
    skills: [{ ...skillOf(agent), securityRequirements: [] }],
    signatures: [],
  };
}

/** The card in A2A 1.0's JSON. */
export const cardJson = (card: CoreAgentCard) => AgentCard.toJSON(card) as Record<string, unknown>;

/** The card in A2A 0.3's shape, for clients that speak it. */
export function legacyCardJson(agent: CardAgent, origin: string) {
  return {
    protocolVersion: A2A_LEGACY_PROTOCOL_VERSION,
    name: agent.name,
    description: descriptionOf(agent),
    url: `${origin}${a2aEndpointPath(agent.id)}`,
    preferredTransport: BINDING,
    provider: { organization: 'Agent Platform', url: origin },
    version: String(agent.version),
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: BEARER_DESCRIPTION } },
    security: [{ bearer: [] }],
    defaultInputModes: INPUT_MODES,
    defaultOutputModes: OUTPUT_MODES,
    skills: [skillOf(agent)],
  };
}
