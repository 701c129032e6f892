// A POST through the timed client with the client's credentials: the body as text and the time it
// took, or an ApiError when the server answered another status than expected.
import type { Agent } from 'node:http';
import { ApiError, type ApiClient } from './api-client.js';
import { timedRequest } from './http-timing.js';

export async function timedPost(
  client: ApiClient,
  path: string,
  agent: Agent,
  body: Buffer | string,
  contentType: string,
  expectedStatus: number,
): Promise<{ text: string; ms: number }> {
  const response = await timedRequest(client.baseUrl + path, {
    method: 'POST',
    headers: { ...client.authorizationHeaders(), 'content-type': contentType },
    body,
    agent,
    keepBody: true,
  });
  const text = response.body!.toString('utf8');
  if (response.status !== expectedStatus) throw new ApiError('POST', path, response.status, text);
  return { text, ms: response.ms };
}
