// The operations of an OpenAPI 3 or Swagger 2 document read in the browser, so that a person picks
// which to import before the server does the work: each by the key the import takes (operationId, or
// "METHOD /path" when it has none), with its summary. YAML is read by the `yaml` package, loaded only
// when a document is not JSON. The server reads the document again and decides; this is a preview.

export interface PreviewOperation {
  key: string;
  method: string;
  path: string;
  summary: string;
}

export interface PreviewDocument {
  title: string;
  operations: PreviewOperation[];
}

const HTTP_KEYS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

async function parsed(text: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch {
    const { parse } = await import('yaml');
    return parse(text);
  }
}

/** The document's operations, or an Error saying why it is not one. */
export async function previewDocument(text: string): Promise<PreviewDocument> {
  let document: unknown;
  try {
    document = await parsed(text);
  } catch (error) {
    throw new Error(`The file is neither JSON nor YAML: ${(error as Error).message}`);
  }
  if (document === null || typeof document !== 'object') throw new Error('The file is not an OpenAPI document');
  const root = document as { openapi?: unknown; swagger?: unknown; info?: { title?: unknown }; paths?: unknown };
  if (root.openapi === undefined && root.swagger === undefined) throw new Error('The file is not an OpenAPI document: it has neither "openapi" nor "swagger"');
  const operations: PreviewOperation[] = [];
  for (const [path, item] of Object.entries((root.paths ?? {}) as Record<string, unknown>)) {
    if (item === null || typeof item !== 'object') continue;
    for (const [method, operation] of Object.entries(item as Record<string, unknown>)) {
      if (!HTTP_KEYS.includes(method) || operation === null || typeof operation !== 'object') continue;
      const { operationId, summary, description } = operation as { operationId?: unknown; summary?: unknown; description?: unknown };
      const key = typeof operationId === 'string' && operationId !== '' ? operationId : `${method.toUpperCase()} ${path}`;
      operations.push({ key, method: method.toUpperCase(), path, summary: typeof summary === 'string' ? summary : typeof description === 'string' ? description.slice(0, 200) : '' });
    }
  }
  return { title: typeof root.info?.title === 'string' ? root.info.title : 'Untitled API', operations };
}
