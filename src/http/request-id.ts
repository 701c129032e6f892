// The id of a request: in the X-Request-Id header, the error envelope and every log line of it.
import { randomUUID } from 'node:crypto';

export function generateRequestId(): string {
  return randomUUID();
}
