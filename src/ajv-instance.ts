// Ajv instances made when first needed: Ajv's modules are loaded (with require, as compiling is
// synchronous) by the first schema compiled, not at start, since the routes' validators come
// compiled from the build (src/http/precompiled-schemas.ts).
import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';

const require = createRequire(import.meta.url);

/** A new Ajv with `formats` from ajv-formats: those named, or all of them. */
export function createAjv(options: Options, formats: readonly string[] | 'all'): Ajv {
  const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
  const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
  const ajv = new AjvClass(options);
  if (formats === 'all') addFormats(ajv);
  else if (formats.length > 0) addFormats(ajv, [...formats] as Parameters<typeof addFormats>[1]);
  return ajv;
}

/** One Ajv for a module, made by `make` on the first call. */
export function lazyAjv(make: () => Ajv): () => Ajv {
  let ajv: Ajv | undefined;
  return () => (ajv ??= make());
}
