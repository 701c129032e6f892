// What the model reads of an MCP tool's answer: its text content joined, other content described
// rather than shown (images, audio, binary resources), structured content as JSON when there is no
// text; an answer the server marks `isError` is a failure the model is told. And a failed session
// told in one sentence: a refused address, the deadline, the byte cap, an HTTP status, a protocol error.
import { EgressFailed, EgressRefused } from '../../net/egress-errors.js';
import { loadedClientSdk } from './client-sdk.js';
import { McpCommandRefused, McpDeadline, rootOf } from './connection.js';

type ContentBlock = Record<string, unknown> & { type?: unknown };

const bytesOfBase64 = (data: unknown) => (typeof data === 'string' ? Math.floor((data.replace(/=+$/, '').length * 3) / 4) : 0);

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '');
    case 'image':
    case 'audio':
      return `(${block.type} content of type ${String(block.mimeType ?? 'unknown')}, ${bytesOfBase64(block.data)} bytes, not shown)`;
    case 'resource_link':
      return `(a link to the resource ${String(block.uri ?? '')}${block.name ? ` "${String(block.name)}"` : ''})`;
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      if (typeof resource.text === 'string') return resource.text;
      return `(the resource ${String(resource.uri ?? '')} of type ${String(resource.mimeType ?? 'unknown')}, ${bytesOfBase64(resource.blob)} bytes, not shown)`;
    }
    default:
      return `(content of type ${String(block.type)}, not shown)`;
  }
}

/** The answer's content as text for the model. */
export function callResultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  if (content.length === 0) {
    if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
    // A server of an older protocol version answers `toolResult`.
    if (result.toolResult !== undefined) return JSON.stringify(result.toolResult);
    return '(no content)';
  }
  return content.map(blockText).join('\n');
}

/** A failed listing or call in one sentence; URLs are named without their query, headers never. */
export function describeMcpFailure(error: unknown): { message: string; timedOut: boolean } {
  const cause = rootOf(error);
  if (cause instanceof McpDeadline) return { message: cause.message, timedOut: true };
  if (cause instanceof EgressRefused) return { message: `The call was refused: ${cause.message}`, timedOut: false };
  if (cause instanceof EgressFailed) {
    return cause.kind === 'timeout' ? { message: `The MCP server did not answer in time: ${cause.message}`, timedOut: true } : { message: `The call failed: ${cause.message}`, timedOut: false };
  }
  if (cause instanceof McpCommandRefused) return { message: cause.message, timedOut: false };
  // The SDK's errors exist only once a session loaded it.
  const sdk = loadedClientSdk();
  if (sdk !== undefined && cause instanceof sdk.McpError) {
    if (cause.code === Number(sdk.ErrorCode.RequestTimeout)) return { message: 'The MCP server did not answer in time', timedOut: true };
    return { message: `The MCP server answered with an error: ${cause.message}`, timedOut: false };
  }
  if (sdk !== undefined && (cause instanceof sdk.StreamableHTTPError || cause instanceof sdk.SseError)) return { message: `The MCP server could not be reached: ${cause.message}`, timedOut: false };
  return { message: `The call failed: ${cause instanceof Error ? cause.message : String(cause)}`, timedOut: false };
}
