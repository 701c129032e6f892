// Fastify's response serializers (fast-json-stringify), compiled once per process and shared by every
// app it builds. A serializer is a pure function of its schema, the shared schemas it may refer to and
// the options, so the same three give back the same function; compiling them is, with the validators,
// most of the time an app takes to build.
import SerializerSelector, { type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';

const compileSerializer = SerializerSelector();
const serializers = new Map<string, Serializer>();

export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = compileSerializer(externalSchemas, options);
  const context = JSON.stringify([externalSchemas, options ?? null]);
  return (route) => {
    const key = `${context} ${JSON.stringify(route.schema)}`;
    let serialize = serializers.get(key);
    if (!serialize) {
      serialize = compile(route);
      serializers.set(key, serialize);
    }
    return serialize;
  };
};
