// A schema of an OpenAPI document, $refs already resolved by the parser, copied into a standalone
// JSON Schema that a tool can keep: OpenAPI 3.0's dialect turned into JSON Schema (`nullable`,
// boolean `exclusiveMinimum`), documentation-only keywords dropped, a schema that contains itself
// cut where it recurs. The parser shares one object for every use of a $ref; a copy would expand
// shared objects again, so a document whose references multiply (each schema using the next twice)
// is stopped by a budget of nodes rather than filling the memory.
import { BadRequest, PayloadTooLarge } from '../../../errors.js';

/** Most schema objects copied for one operation, unless the settings say otherwise (LIMIT_TOOL_IMPORT_SCHEMA_PARTS). */
export const MAX_SCHEMA_NODES = 5_000;

// Keywords of OpenAPI schemas that JSON Schema validators do not need and models do not use.
const DROPPED = new Set(['xml', 'externalDocs', 'example', 'examples', 'discriminator', 'deprecated', 'readOnly', 'writeOnly', '$schema', '$id', 'id']);

/** The refusal of a $ref the parser left unresolved: one to another file or URL, never read. */
export function externalReference(ref: string): BadRequest {
  return new BadRequest(`The document refers to ${ref.slice(0, 200)}: references outside the document are not followed`);
}

export class SchemaBudget {
  private used = 0;
  constructor(
    private readonly operation: string,
    private readonly limit = MAX_SCHEMA_NODES,
  ) {}
  spend(): void {
    if (++this.used > this.limit) {
      throw new PayloadTooLarge(`The schemas of operation ${this.operation} expand to more than ${this.limit} parts; import fewer or simpler operations`);
    }
  }
}

function typeWithNull(type: unknown): unknown {
  if (typeof type === 'string') return type === 'null' ? type : [type, 'null'];
  if (Array.isArray(type)) return type.includes('null') ? type : [...type, 'null'];
  return type;
}

/** A standalone copy of the schema. `ancestors` holds the schemas being copied around this one. */
export function copySchema(schema: unknown, budget: SchemaBudget, ancestors: Set<object> = new Set()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => copySchema(item, budget, ancestors));
  if (schema === null || typeof schema !== 'object') return schema;
  budget.spend();
  if (ancestors.has(schema)) return { description: '(the same structure again, recursively)' };
  const source = schema as Record<string, unknown>;
  if (typeof source.$ref === 'string') throw externalReference(source.$ref);
  ancestors.add(schema);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    // `properties`, `patternProperties`, `definitions` map names to schemas: the names are not keywords.
    if ((key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions') && value !== null && typeof value === 'object') {
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, copySchema(item, budget, ancestors)]));
    } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'required') {
      copy[key] = structuredClone(value);
    } else {
      copy[key] = copySchema(value, budget, ancestors);
    }
  }
  ancestors.delete(schema);
  // OpenAPI 3.0: `nullable: true` is JSON Schema's null among the types.
  if (copy.nullable === true) copy.type = typeWithNull(copy.type);
  delete copy.nullable;
  // OpenAPI 3.0 (JSON Schema draft 4): a boolean exclusiveMinimum/Maximum qualifies minimum/maximum.
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof copy[exclusive] === 'boolean') {
      if (copy[exclusive] === true && typeof copy[bound] === 'number') copy[exclusive] = copy[bound];
      else delete copy[exclusive];
      if (typeof copy[exclusive] === 'number') delete copy[bound];
    }
  }
  return copy;
}
