// Uploads through openapi-fetch: a multipart/form-data operation's body is typed from the document
// (files as Blob), and toFormData, given as its bodySerializer, sends it as FormData.

/**
 * The bodySerializer of a multipart/form-data operation: each field of the form is a part; a Blob is
 * a file (a File keeps its name), an array one part per item, any other value its text; undefined
 * and null fields are left out.
 *
 *     await api.POST('/api/v2/corpora/{corpus_id}/documents', {
 *       params: { path: { corpus_id } },
 *       body: { files: [file], on_duplicate: 'skip' },
 *       bodySerializer: toFormData,
 *     });
 */
export function toFormData(form: object): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(form)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (item instanceof Blob) data.append(name, item);
      else data.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  return data;
}
