// The runnable form of an API tool: checks the model's arguments against the tool's parameters,
// builds the request, sends it through the egress client under the call's deadline, byte cap and
// signal, and gives what the API answered as the model will read it. Every failure (arguments,
// refused address, timeout, an answer too large, an HTTP error) is an outcome with status 'error';
// nothing the API or the arguments do makes it throw. Every form of the tool's secret is taken out of
// every output, whatever the API echoed of the request (src/tools/api/secret-forms.ts).
import type { RunnableTool, StoredTool, ToolOutcome, ToolRunContext } from '../tool.js';
import type { ToolDeps } from '../tool-deps.js';
import type { ApiToolConfig } from './config.js';
import { checkArguments, describeProblems } from '../json-schema.js';
import { buildApiRequest, maskRequest } from './request-builder.js';
import { capOutput, describeFailure, httpFailure, responseText } from './response-text.js';
import { secretForms, withoutSecret } from './secret-forms.js';

export function createApiTool(tool: StoredTool, deps: Pick<ToolDeps, 'egress' | 'maxOutputCharacters'>): RunnableTool {
  const config = tool.config as ApiToolConfig;
  const forms = secretForms(config.auth ?? { type: 'none' }, tool.secret);
  /** The outcome as the model, the answer and the records may see it: the secret taken out before the output is cut. */
  const redacted = (outcome: ToolOutcome): ToolOutcome => ({ ...outcome, output: withoutSecret(outcome.output, forms) });
  // Cut after the secret is taken out, so that a cut never leaves part of a secret to be missed.
  const cap = (text: string) => capOutput(withoutSecret(text, forms), deps.maxOutputCharacters);

  async function run(input: Record<string, unknown>, context: ToolRunContext): Promise<ToolOutcome> {
    const checked = checkArguments(config.parameters, input ?? {});
    if (!checked.ok) return { status: 'error', output: `The arguments do not match the tool's parameters: ${describeProblems(checked.problems)}` };
    let request;
    try {
      request = buildApiRequest(config, checked.value, tool.secret);
    } catch (error) {
      // A missing path parameter, a header value with a line break, no secret, a URL that the values made invalid.
      return { status: 'error', output: `The request cannot be made: ${(error as Error).message}` };
    }
    const shown = maskRequest(request, config, tool.secret);
    try {
      const response = await deps.egress.request(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === null ? {} : { body: request.body }),
        timeoutMs: context.timeoutMs,
        maxBytes: context.maxResponseBytes,
        signal: context.signal,
      });
      const text = responseText(response);
      if (response.status >= 400) return { status: 'error', httpStatus: response.status, request: shown, output: cap(httpFailure(response.status, text)) };
      return { status: 'ok', httpStatus: response.status, request: shown, output: cap(text) };
    } catch (error) {
      return { status: 'error', request: shown, output: describeFailure(error, context.timeoutMs) };
    }
  }

  return {
    id: tool.id,
    kind: 'api',
    definition: { name: tool.name, description: tool.description, parameters: config.parameters },
    async run(input, context) {
      try {
        return redacted(await run(input, context));
      } catch (error) {
        // A fault of ours, not of the API: still an outcome, so that the answer goes on.
        return redacted({ status: 'error', output: `The tool failed: ${error instanceof Error ? error.message : String(error)}` });
      }
    },
  };
}
