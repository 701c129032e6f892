// The settings of an attachment tool, which reads the files given in the answer's own thread.
import { Type, type Static } from '@sinclair/typebox';

export const ATTACHMENT_DEFAULT_MAX_CHARACTERS = 12_000;

export const AttachmentConfig = Type.Object(
  {
    max_characters: Type.Optional(
      Type.Integer({
        minimum: 100,
        maximum: 200_000,
        default: ATTACHMENT_DEFAULT_MAX_CHARACTERS,
        description: 'Most characters of an attachment’s text given to the model in one call (the runtime’s output cap applies too)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AttachmentConfig = Static<typeof AttachmentConfig>;
