import { Type, type Static } from '@sinclair/typebox';
import { named, withExamples } from '../../http/schemas.js';

export const GenerateImageBody = Type.Object(
  {
    description: Type.Optional(
      Type.String({ minLength: 1, maxLength: 4000, description: "What to draw; without it, the agent's name and description" }),
    ),
  },
  { description: 'Unknown fields are ignored' },
);
export type GenerateImageInput = Static<typeof GenerateImageBody>;

export const GeneratedImageSchema = named(
  'AgentImage',
  Type.Object({
    image_key: Type.String({ description: "The agent's image_key now" }),
    content_type: Type.String({ description: 'Decided from the bytes: image/png, image/jpeg, image/gif or image/webp' }),
    size: Type.Integer({ minimum: 1, description: 'Bytes' }),
    generated_by: Type.Union([Type.Literal('model'), Type.Literal('avatar')], {
      description: 'model: the image model (IMAGE_BASE_URL); avatar: a deterministic avatar drawn from the agent’s name',
    }),
  }),
);

export const ImageHeaders = Type.Object({
  'if-none-match': Type.Optional(Type.String({ description: 'The ETag of an image held; 304 while it is still the agent’s image' })),
});

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(GenerateImageBody, { description: 'A friendly owl wearing headphones, flat illustration, blue and white' });
