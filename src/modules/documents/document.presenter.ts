// The presenters of a document, generated from the fields that also make its schemas and the JSON
// the database writes of its listings (documents.schemas.ts).
import { presenterOf } from '../../http/presented-fields.js';
import type { DocumentWithUsers } from './documents.repo.js';
import { documentFields, legacyDocumentFields, type DocumentView, type LegacyDocument } from './documents.schemas.js';

export const presentDocument: (document: DocumentWithUsers) => DocumentView = presenterOf<DocumentWithUsers, typeof documentFields>(documentFields);

/** A document as an element of the corpus document listing (API.md §2.2). */
export const presentLegacyDocument: (document: DocumentWithUsers) => LegacyDocument = presenterOf<DocumentWithUsers, typeof legacyDocumentFields>(legacyDocumentFields);
