// The settings of a retrieval tool: which corpora it searches (always within the caller's own
// permissions at run time) and how many passages it gives back.
import { Type, type Static } from '@sinclair/typebox';

export const RETRIEVAL_DEFAULT_PASSAGES = 5;

export const RetrievalConfig = Type.Object(
  {
    corpus_ids: Type.Array(Type.Integer({ minimum: 1 }), {
      minItems: 1,
      maxItems: 20,
      uniqueItems: true,
      description: 'Corpora searched; at run time those the caller may not read are left out',
    }),
    passages: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 20, default: RETRIEVAL_DEFAULT_PASSAGES, description: 'Most passages given to the model' }),
    ),
  },
  { additionalProperties: false },
);
export type RetrievalConfig = Static<typeof RetrievalConfig>;
