// Every request body of the OpenAPI document shows an example for each of its media types (JSON,
// multipart, CSV), and every example is valid against the schema beside it, checked as the server
// checks bodies (its formats): what a reader copies from the reference works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { fetchOpenApiDocument, operationsOf, schemaValidator, type OpenApiDocument } from './support/openapi-schemas.js';

/** The examples of a media type: `example`, or the values of `examples`. */
function examplesOf(media: { example?: unknown; examples?: Record<string, { value?: unknown }> }): unknown[] {
  if (media.example !== undefined) return [media.example];
  return Object.values(media.examples ?? {}).map((example) => example.value);
}

describe('examples of request bodies', () => {
  let t: TestApp;
  let document: OpenApiDocument;
  let compile: ReturnType<typeof schemaValidator>;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    document = await fetchOpenApiDocument(t.app);
    compile = schemaValidator(document);
  });
  afterAll(() => t.close());

  const withBodies = () => operationsOf(document).filter(({ operation }) => operation.requestBody !== undefined);

  it('gives each media type of every request body at least one example', () => {
    const missing: string[] = [];
    for (const { label, operation } of withBodies()) {
      for (const [type, media] of Object.entries<any>(operation.requestBody.content)) {
        if (examplesOf(media).length === 0) missing.push(`${label} ${type}`);
      }
    }
    expect(missing).toEqual([]);
    expect(withBodies().length).toBeGreaterThan(70);
  });

  it('gives examples that are valid against their schemas', () => {
    let checked = 0;
    for (const { label, operation } of withBodies()) {
      for (const [type, media] of Object.entries<any>(operation.requestBody.content)) {
        const validate = compile(media.schema);
        for (const example of examplesOf(media)) {
          expect(validate(example) ? [] : validate.errors, `${label} ${type}`).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(80);
  });

  it('has teeth: an example made wrong is refused, through a reference and in a form', () => {
    const createAgent = document.paths['/api/v2/agents']!.post.requestBody.content['application/json'];
    expect(compile(createAgent.schema)({ ...createAgent.example, name: '' })).toBe(false);
    const filter = document.paths['/api/v2/agents/filter']!.post.requestBody.content['application/json'];
    expect(compile(filter.schema)({ created_after: 'last tuesday' })).toBe(false);
    const upload = document.paths['/api/v2/corpora/{corpus_id}/documents']!.post.requestBody.content['multipart/form-data'];
    expect(upload.schema).toEqual({ $ref: '#/components/schemas/DocumentUploadForm' });
    expect(compile(upload.schema)({ ...upload.example, on_duplicate: 'overwrite' })).toBe(false);
  });

  it('describes the files of every upload as binary strings, beside JSON where the route takes both', () => {
    const forms = withBodies().filter(({ operation }) => operation.requestBody.content['multipart/form-data'] !== undefined);
    expect(forms.map(({ operation }) => operation.operationId).sort()).toEqual(
      ['setOrganizationLogo', 'uploadCorpusDocuments', 'uploadCorpusDocumentsLegacy', 'uploadThreadAttachments'].sort(),
    );
    const resolve = (schema: any) => (schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema);
    for (const { label, operation } of forms) {
      const form = resolve(operation.requestBody.content['multipart/form-data'].schema);
      const files = form.properties.files ?? form.properties.file;
      expect(files.items ?? files, label).toMatchObject({ type: 'string', format: 'binary' });
    }
    for (const path of ['/api/v2/corpora/{corpus_id}/documents', '/api/corpus/{corpus_id}/document/']) {
      expect(Object.keys(document.paths[path]!.post.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    }
  });
});
