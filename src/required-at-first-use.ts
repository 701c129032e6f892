// A CommonJS package required at its first use rather than imported at start, for packages a start
// does not need (docs/performance.md "Suite start"). Required synchronously, so the functions that
// use them stay synchronous.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter of the package, which requires it at its first call and keeps it. */
export function requiredAtFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(name) as T;
    return loaded;
  };
}
