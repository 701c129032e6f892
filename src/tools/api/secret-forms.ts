// The forms a tool's secret takes once sent (as it is, percent-encoded for a URL or a form, escaped
// in JSON, base64 in Basic credentials), so that none of them is shown: an API that echoes its
// request (a debugging endpoint, an error that quotes the headers) would otherwise hand the secret to
// the model, the answer, the stored tool calls and the chat-log export.
import type { ApiAuth } from './config.js';

/** What replaces a secret in what an API answered. */
export const REDACTED = '[REDACTED]';

function base64Forms(text: string): string[] {
  const standard = Buffer.from(text).toString('base64');
  return [standard, standard.replace(/=+$/, ''), Buffer.from(text).toString('base64url')];
}

/** Every form of the secret as it may be sent or echoed, longest first; none when there is no secret. */
export function secretForms(auth: ApiAuth, secret: string | null): string[] {
  if (secret === null || secret === '') return [];
  const encoded = [encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = [
    secret,
    ...encoded,
    // Some encoders write percent escapes in lower case.
    ...encoded.map((form) => form.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())),
    json,
    // Some JSON writers also escape the slash.
    json.replaceAll('/', '\\/'),
    ...(auth.type === 'basic' ? base64Forms(`${auth.username}:${secret}`) : []),
  ];
  return [...new Set(forms)].filter((form) => form !== '').sort((a, b) => b.length - a.length);
}

/** The text with every form of the secret replaced by `replacement`. */
export function withoutSecret(text: string, forms: readonly string[], replacement = REDACTED): string {
  let hidden = text;
  for (const form of forms) hidden = hidden.split(form).join(replacement);
  return hidden;
}
