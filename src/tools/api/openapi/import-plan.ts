// One import of a document: every chosen operation made into tool settings, or refused with the
// reason and the JSON pointer of the part of the document that is the reason. One operation that
// cannot be made a tool never stops the others. Names are claimed in the document's order, so that
// the same document gives the same names at every import.
import type { AppError } from '../../../errors.js';
import type { OpenApiDocument } from './document.js';
import { importOperation, operationKey, operationPointer, OperationRefused, type ImportedOperation, type ImportOptions, type OperationRef } from './operations.js';
import { ImportNames } from './tool-names.js';

export interface OperationResult {
  /** operationId, or `METHOD /path` when the operation has none. */
  operation: string;
  method: string;
  path: string;
  /** JSON pointer of the operation, or of the part of it that is the reason it was refused. */
  pointer: string;
  /** The tool settings made, when the operation could be made one. */
  imported?: ImportedOperation;
  /** Why it could not be, when it could not. */
  refusal?: AppError;
}

export function* importOperations(document: OpenApiDocument, refs: readonly OperationRef[], options: ImportOptions): Generator<OperationResult> {
  const names = new ImportNames();
  for (const ref of refs) {
    const base = { operation: operationKey(ref), method: ref.method.toUpperCase(), path: ref.path };
    try {
      const imported = importOperation(document, ref, options);
      yield { ...base, pointer: imported.pointer, imported: { ...imported, name: names.claim(imported.name) } };
    } catch (error) {
      if (!(error instanceof OperationRefused)) throw error;
      yield { ...base, pointer: error.pointer ?? operationPointer(ref), refusal: error.refusal };
    }
  }
}
