// The description of every success response in the OpenAPI document. A route schema may give its own
// (the response schema's description); otherwise it is read from the name of the schema answered and
// the status: 200 "The agent", 201 "The created agent", a page "A page of agents, with the total".
// Where that rule reads wrong (a schema named for an action, or none named), the description is
// written out below. Error responses are described by their status (schemas.ts, ERROR_DESCRIPTIONS).

type Json = Record<string, any>;

/** What @fastify/swagger writes when a response schema has no description. */
export const UNDESCRIBED = 'Default Response';

/** By the name of the response's schema, where the rule would read wrong. */
const BY_SCHEMA: Record<string, string> = {
  AgentListChangeEnvelope: 'The agent whose place in the list changed',
  CorpusAgentChangeEnvelope: 'The agent disconnected from the corpus',
  NotificationsMarkedReadEnvelope: 'How many notifications were marked read',
  CorpusPermissionRevokedEnvelope: 'The user whose permission was revoked',
  RemovedTeammateEnvelope: 'The teammate removed from the team',
  LogoUploadedEnvelope: 'The stored logo: its address, type and size',
  AddedQueriesEnvelope: 'How many queries were added, and their identifiers',
  AgentHistoryResponseEnvelope: 'The checkpoint the agent was restored to',
  DuplicateCheckEnvelope: 'For each file or hash given, whether the corpus holds it already',
  DocumentUploadResultEnvelope: 'The documents accepted for processing, and the files the corpus held already',
  NewApiKeyEnvelope: 'The created API key, with its secret shown this once',
  CreatedUserEnvelope: 'The created user, with a one-time set-password token when no password was given',
  PasswordTokenEnvelope: 'The new one-time set-password token, shown this once',
  ThreadAttachmentListEnvelope: 'The files of the thread',
  ConnectedAgentListEnvelope: 'The agents connected to the corpus',
  CurrentUserEnvelope: 'The calling user, with their organization and teams',
  CurrentUser: 'The calling user',
  ServerVersion: 'The versions of the server and of its interface',
  AgentResponse: 'The agent response',
  AgentHistoryRecordDetailEnvelope: 'The history record, with its configuration snapshot and its difference from the current configuration',
  AgentBuilderResultEnvelope: 'The drafted agent configuration, and what drafting it used',
  CorpusSearchResultEnvelope: 'The passages that best match the query, and the retrieval mode used',
  DocumentWithTextEnvelope: 'The document, with its extracted text',
  EmailAuthorization: 'Where to send the user to authorize access to the mailbox',
  AnalyticsSummaryEnvelope: 'The headline figures of the scope',
  AnalyticsCostEnvelope: 'Cost over time',
  AnalyticsTokensEnvelope: 'Prompt and completion tokens over time',
  AnalyticsQueryCountEnvelope: 'Queries over time',
  AnalyticsVotesEnvelope: 'Up and down votes over time',
  AnalyticsDocumentCountEnvelope: 'Documents by step and failure over time',
  AnalyticsIndexingModeEnvelope: 'Documents and chunks by indexing mode',
  AnalyticsMostActiveEnvelope: 'The most active agents, users, corpora or projects',
};

/** By operation, where no schema is named (or several are). */
const BY_OPERATION: Record<string, string> = {
  getHome: 'The server\'s name and version, links to the reference and the first steps',
  getHealth: 'The process is up',
  getReadiness: 'The database and the workers answer: the server takes requests',
  login: 'The session: a bearer token in the body, or (session "cookie") the session cookies set',
  logout: 'The session ended',
  createApiTool: 'The created tool, or the tools imported from an OpenAPI document',
  listConversationStartersLegacy: 'The conversation starters',
};

const ACRONYMS: Record<string, string> = { llm: 'LLM', api: 'API', 'open ai': 'OpenAI' };

/** "LlmConfiguration" → "LLM configuration"; a leading "Legacy" is the generation, not the thing. */
function words(name: string): string {
  let text = name.replace(/^Legacy(?=[A-Z])/, '').replace(/(?<=[a-z0-9])(?=[A-Z])/g, ' ').toLowerCase();
  for (const [lower, written] of Object.entries(ACRONYMS)) text = text.replace(new RegExp(`\\b${lower}\\b`, 'g'), written);
  return text;
}

function plural(phrase: string): string {
  if (phrase.endsWith('corpus')) return `${phrase.slice(0, -2)}ora`;
  if (/[^aeiou]y$/.test(phrase)) return `${phrase.slice(0, -1)}ies`;
  if (/(x|s)$/.test(phrase)) return `${phrase}es`;
  return `${phrase}s`;
}

const nameOf = (schema: Json | undefined): string | undefined =>
  typeof schema?.$ref === 'string' ? schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1) : undefined;

function byRule(method: string, status: string, schema: Json | undefined): string | undefined {
  const item = nameOf(schema?.items);
  if (schema?.type === 'array' && item) return `The ${status === '201' ? 'created ' : ''}${plural(words(item))}`;
  const schemaName = nameOf(schema);
  if (schemaName === undefined) return undefined;
  const explicit = BY_SCHEMA[schemaName];
  if (explicit) return explicit;
  const name = schemaName.replace(/Envelope$/, '');
  if (name === 'Deleted') return 'Deleted: the identifier of what was removed';
  if (name.endsWith('Page')) return `A page of ${plural(words(name.slice(0, -'Page'.length)))}, with the total`;
  if (name.endsWith('List')) return `The ${plural(words(name.slice(0, -'List'.length)))}`;
  if (status === '201') return `The created ${words(name)}`;
  if (status === '202') return `Accepted, the work queued: the ${words(name)} as it stands`;
  if (method === 'put' || method === 'patch' || method === 'delete') return `The ${words(name)}, after the change`;
  return `The ${words(name)}`;
}

/** The response's description when its route schema gave none; undefined when neither rule nor table knows. */
export function describeResponse(operation: Json, method: string, status: string, response: Json): string | undefined {
  const schema = response.content?.['application/json']?.schema;
  return byRule(method, status, schema) ?? BY_OPERATION[operation.operationId];
}
