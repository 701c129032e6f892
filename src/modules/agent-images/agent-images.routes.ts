import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope, IdParams, ok, responses } from '../../http/schemas.js';
import { GenerateImageBody, GeneratedImageSchema, ImageHeaders } from './agent-images.schemas.js';

const tags = ['agents'];
const AgentParams = IdParams('agent_id');
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const ImageResponse = Type.Unsafe<Buffer>({
  description: "The agent's image",
  content: Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
});

/** Each image has its own key, so a client may keep one and only ask whether it is still the agent's. */
const CACHE_CONTROL = 'private, no-cache';

export const agentImagesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const images = app.services.agentImages;

  app.post(
    '/api/v2/agents/:agent_id/image',
    {
      schema: {
        operationId: 'generateAgentImage',
        tags,
        summary: "Generate the agent's image from a description",
        description:
          'Through the image model (IMAGE_BASE_URL, an OpenAI-compatible images API) or, with none configured, a deterministic avatar drawn ' +
          `from the agent's name. The image is checked by its content (PNG, JPEG, GIF or WebP, else 502) and its size (at most ` +
          `LIMIT_IMAGE_BYTES, ${app.config.limits.imageBytes} bytes here, else 502), then becomes part of the agent's configuration: ` +
          'a history record is written, and a restore brings an earlier image back. Flag image-generation.',
        params: AgentParams,
        body: Type.Optional(GenerateImageBody),
        response: responses({ 201: Envelope(GeneratedImageSchema) }, [403, 404, 502, 504]),
      },
    },
    async (request, reply) => {
      const image = await images.generate(request.actor, request.params.agent_id, request.body?.description);
      return reply.code(201).send(ok('Image generated', image));
    },
  );

  app.get(
    '/api/v2/agents/:agent_id/image',
    {
      schema: {
        operationId: 'getAgentImage',
        tags,
        summary: "The agent's image",
        description: `The image with its type decided from its bytes; 404 while the agent has none. ETag names the image: with If-None-Match holding it, 304 and no body. Cache-Control: ${CACHE_CONTROL}.`,
        params: AgentParams,
        headers: ImageHeaders,
        'x-document': {
          responses: { 304: { description: "Not modified: the image named by If-None-Match is still the agent's" } },
          responseHeaders: { 200: ['ETag', 'Cache-Control'], 304: ['ETag', 'Cache-Control'] },
        },
        response: responses({ 200: ImageResponse }, [404]),
      },
    },
    async (request, reply) => {
      const image = await images.image(request.actor, request.params.agent_id);
      reply.header('etag', image.etag).header('cache-control', CACHE_CONTROL);
      const held = request.headers['if-none-match'];
      if (held !== undefined && held.split(',').some((tag) => tag.trim() === image.etag || tag.trim() === '*')) return reply.code(304).send();
      return reply.type(image.contentType).send(image.bytes);
    },
  );
};
