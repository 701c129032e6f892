// Fastify's response serializers (fast-json-stringify). A serializer is a pure function of its
// schema, the shared schemas it may refer to and the options, so the same three give back the same
// function: most come compiled from the build (precompiled-schemas.ts), and one per schema is kept
// for the process, shared by every app it builds. fast-json-stringify is loaded only for a schema
// the build did not see.
import { createRequire } from 'node:module';
import type { Options, SerializerFactory, Serializer } from '@fastify/fast-json-stringify-compiler';
import { precompiled, schemaKey } from './precompiled-schemas.js';

const require = createRequire(import.meta.url);

const selector = () => (require('@fastify/fast-json-stringify-compiler') as typeof import('@fastify/fast-json-stringify-compiler')).SerializerSelector();

export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const context = JSON.stringify([externalSchemas, options ?? null]);
  return (route) =>
    precompiled('serializer', schemaKey('serializer', context, JSON.stringify(route.schema)), (withCode) => {
      const compiled = selector()(externalSchemas, options)(route);
      if (!withCode) return { compiled };
      // The same generator's code, standing alone: what it validates (anyOf, if/then) inlined as
      // Ajv's own standalone code, so that running it needs no Ajv.
      const standalone: Options = { ...options, mode: 'standalone', inlineValidators: true };
      return { compiled, code: selector()(externalSchemas, standalone)(route) as unknown as string };
    }, { route, externalSchemas, options }) as Serializer;
};
