// An OpenAI-compatible images API (POST {base}/images/generations, the image as b64_json), called
// through the egress client with the configured deadline and a byte cap. Every failure is an
// UpstreamError (502) or UpstreamTimeout (504) whose message never carries the key.
import type { ImageSettings } from '../../config.js';
import { UpstreamError, UpstreamTimeout } from '../../errors.js';
import type { EgressClient, EgressResponse } from '../../net/egress.js';
import { EgressFailed, EgressRefused } from '../../net/egress-errors.js';
import type { ImageGenerator, ImageRequest } from './image-generator.js';

/** Base64 takes 4 characters per 3 bytes; the JSON around it is small. */
const answerBytesFor = (imageBytes: number) => Math.ceil(imageBytes / 3) * 4 + 64 * 1024;

export class OpenAiImageModel implements ImageGenerator {
  readonly source = 'model' as const;

  constructor(
    private readonly settings: ImageSettings,
    private readonly egress: EgressClient,
  ) {}

  async generate({ prompt, maxBytes }: ImageRequest): Promise<Buffer> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.settings.apiKey !== undefined) headers.authorization = `Bearer ${this.settings.apiKey}`;
    const body = JSON.stringify({ model: this.settings.model, prompt, n: 1, size: this.settings.size, response_format: 'b64_json' });
    let response: EgressResponse;
    try {
      response = await this.egress.request(`${this.settings.baseUrl}/images/generations`, {
        method: 'POST',
        headers,
        body,
        timeoutMs: this.settings.timeoutMs,
        maxBytes: answerBytesFor(maxBytes),
      });
    } catch (error) {
      throw this.transportFailure(error, maxBytes);
    }
    if (response.status < 200 || response.status >= 300) throw new UpstreamError(`The image model refused the request (HTTP ${response.status})`);
    return imageOf(response.body);
  }

  private transportFailure(error: unknown, maxBytes: number): Error {
    if (error instanceof EgressRefused) return new UpstreamError(`${error.message} (a self-hosted image model must be listed in EGRESS_ALLOWED_HOSTS)`);
    if (error instanceof EgressFailed && error.kind === 'timeout') return new UpstreamTimeout(`The image model did not answer within ${this.settings.timeoutMs} ms (IMAGE_TIMEOUT_MS)`);
    if (error instanceof EgressFailed && error.kind === 'too_large') return new UpstreamError(`The image model answered an image larger than ${maxBytes} bytes (LIMIT_IMAGE_BYTES)`);
    return new UpstreamError(`The image model could not be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The first image of an answer, decoded; anything else is the model's fault. */
function imageOf(body: Buffer): Buffer {
  let answer: unknown;
  try {
    answer = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamError('The image model answered something that is not JSON');
  }
  const encoded = (answer as { data?: { b64_json?: unknown }[] } | null)?.data?.[0]?.b64_json;
  if (typeof encoded !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded.replace(/\s/g, ''))) {
    throw new UpstreamError('The image model answered no image (data[0].b64_json)');
  }
  return Buffer.from(encoded, 'base64');
}
