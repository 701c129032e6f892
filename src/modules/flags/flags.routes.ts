import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, List, ok, responses } from '../../http/schemas.js';
import { FEATURE_FLAGS, FLAG_NAMES } from './feature-flags.js';
import { FlagParams, FlagSchema, SetFlagBody } from './flags.schemas.js';

const tags = ['flags'];

export const flagsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const flags = app.services.flags;

  app.get(
    '/api/v2/feature-flags',
    {
      schema: {
        operationId: 'listFeatureFlags',
        tags,
        summary: "All feature flags and their state for the caller's organization",
        description: 'The whole catalogue, not paginated.',
        response: responses({ 200: Envelope(List(FlagSchema)) }),
      },
    },
    async (request) => ok('Feature flags', { items: await flags.list(request.actor) }),
  );

  app.put(
    '/api/v2/feature-flags/:flag',
    {
      schema: {
        operationId: 'setFeatureFlag',
        tags,
        summary: 'Turn a feature flag on or off for the organization (admins)',
        params: FlagParams,
        body: SetFlagBody,
        response: responses({ 200: Envelope(FlagSchema) }, [403]),
      },
    },
    async (request) => ok('Feature flag set', await flags.set(request.actor, request.params.flag, request.body.enabled)),
  );

  // One read per flag, under its own path, as the catalogue names them.
  for (const flag of FLAG_NAMES) {
    app.get(
      `/api/v2/feature-flags/${flag}`,
      {
        schema: {
          // getAgentAliasFlag, getPiiRedactionFlag, …
          operationId: `get${flag.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase())}Flag`,
          tags,
          summary: FEATURE_FLAGS[flag].summary,
          description: `Whether "${flag}" is on for the caller's organization. Gates: ${FEATURE_FLAGS[flag].gates}.`,
          response: responses({ 200: Envelope(FlagSchema) }),
        },
      },
      async (request) => ok('Feature flag', await flags.get(request.actor, flag)),
    );
  }
};
