// The shapes the chat page works with: the stored response and what an answer carries, from the
// client package's generated schemas. The ask's stream is read with the package's typed reader
// (readAskEvents), whose events carry these.
import type { Schemas } from '../../api/client';

export type AgentResponse = Schemas['AgentResponse'];
export type Citation = Schemas['Citation'];
export type ToolCall = Schemas['ToolCall'];
export type GuardrailAction = Schemas['GuardrailAction'];
