// What the agents pages change through the API. An update carries the version the person started
// from in If-Match, so that a change someone else made meanwhile is a 412, never silently overwritten.
import type { paths } from '@agent-platform/client';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { Agent } from './agentQueries';

export type AgentCreation = paths['/api/v2/agents']['post']['requestBody']['content']['application/json'];
export type AgentChange = paths['/api/v2/agents/{agent_id}']['put']['requestBody']['content']['application/json'];

export async function createAgent(body: AgentCreation): Promise<Agent> {
  return (await unwrap(api.POST('/api/v2/agents', { body }))).data;
}

/** Applies the change only if the agent is still at `version` (else the API answers 412). */
export async function updateAgent(agentId: number, version: number, body: AgentChange): Promise<Agent> {
  return (
    await unwrap(api.PUT('/api/v2/agents/{agent_id}', { params: { path: { agent_id: agentId }, header: { 'if-match': `"${version}"` } }, body }))
  ).data;
}

export async function setAgentActive(agentId: number, active: boolean): Promise<Agent> {
  const path = active ? '/api/v2/agents/{agent_id}/activate' : '/api/v2/agents/{agent_id}/deactivate';
  return (await unwrap(api.POST(path, { params: { path: { agent_id: agentId } } }))).data;
}

export async function deleteAgent(agentId: number): Promise<void> {
  await unwrap(api.DELETE('/api/v2/agents/{agent_id}', { params: { path: { agent_id: agentId } } }));
}

export async function generateAgentImage(agentId: number, description: string): Promise<Schemas['AgentImage']> {
  const body = description.trim() === '' ? {} : { description: description.trim() };
  return (await unwrap(api.POST('/api/v2/agents/{agent_id}/image', { params: { path: { agent_id: agentId } }, body }))).data;
}

export async function setStarred(agentId: number, starred: boolean): Promise<void> {
  if (starred) await unwrap(api.POST('/api/v2/agents/starred', { body: { agent_id: agentId } }));
  else await unwrap(api.DELETE('/api/v2/agents/starred/{agent_id}', { params: { path: { agent_id: agentId } } }));
}

/** Puts the agent at the top of the caller's recent list. */
export async function markUsed(agentId: number): Promise<void> {
  await unwrap(api.POST('/api/v2/agents/recent', { body: { agent_id: agentId } }));
}
