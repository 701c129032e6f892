// The catalogue of feature flags: each flag, its default for an organization that never changed it,
// and what it gates. docs/authorization.md carries the same table for readers; a flag that is off makes
// the operations it gates answer 403.

export interface FlagDefinition {
  summary: string;
  default: boolean;
  /** The operations the flag gates, for people reading the flag list. */
  gates: string;
}

export const FEATURE_FLAGS = {
  'agent-alias': {
    summary: 'Agent alias',
    default: true,
    gates: 'Giving an agent an alias on create, update or restore',
  },
  'api-tools': {
    summary: 'API tools',
    default: false,
    gates: 'Creating, testing and calling API tools and MCP server tools (outbound calls to services an organization names)',
  },
  'chat-agent-creation': {
    summary: 'Creating agents from a chat',
    default: true,
    gates: 'Drafting agents from a description (agents builder) and creating agents from a chat',
  },
  'image-generation': {
    summary: 'Image generation',
    default: true,
    gates: "Generating an agent's image and image answers",
  },
  'developer-portal': {
    summary: 'Developer portal',
    default: true,
    gates: 'Creating API keys (POST /api/v2/auth/api-keys)',
  },
  guardrail: {
    summary: 'Guardrails',
    default: true,
    gates: 'Creating, changing and testing guardrails, and attaching them to agents',
  },
  'pii-redaction': {
    summary: 'PII redaction',
    default: true,
    gates: 'Guardrails of the PII redaction kind',
  },
  'share-agent': {
    summary: 'Sharing agents',
    default: true,
    gates: "Sharing an agent beyond its team (its visibility)",
  },
  'document-library-index': {
    summary: 'Document-library indexing',
    default: false,
    gates: 'Document-library connectors: creating them and syncing',
  },
  a2a: {
    summary: 'Agent-to-agent (A2A)',
    default: false,
    gates: "Each agent's A2A card and its A2A JSON-RPC endpoint (/api/v2/a2a/agents/{agent_id})",
  },
  'video-index': {
    summary: 'Video indexing',
    default: false,
    gates: 'Uploading video documents to a corpus',
  },
} as const satisfies Record<string, FlagDefinition>;

export type FeatureFlag = keyof typeof FEATURE_FLAGS;

export const FLAG_NAMES = Object.keys(FEATURE_FLAGS) as FeatureFlag[];
