// The corpora pages' reads: one query key per thing, so that a change invalidates exactly what it
// touched (a corpus's documents without its search results, the list of corpora without a corpus).
import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Corpus = Schemas['Corpus'];
export type CorpusDocument = Schemas['Document'];
export type DocumentPage = Schemas['DocumentPage'];
export type Passage = Schemas['Passage'];
export type PermissionEntry = Schemas['CorpusPermissionEntry'];
export type CorpusPermission = Corpus['permission'];
export type CorpusLanguage = Corpus['language'];
export type DocumentStep = CorpusDocument['step'];

export const PAGE_SIZE = 20;

export const corpusKeys = {
  lists: ['corpora'] as const,
  list: (page: number, q: string) => ['corpora', { page, q }] as const,
  /** Everything of one corpus (detail, documents, search, permissions). */
  all: (corpusId: number) => ['corpus', corpusId] as const,
  detail: (corpusId: number) => ['corpus', corpusId, 'detail'] as const,
  documents: (corpusId: number) => ['corpus', corpusId, 'documents'] as const,
  documentPage: (corpusId: number, filter: DocumentFilter) => ['corpus', corpusId, 'documents', filter] as const,
  search: (corpusId: number, query: string) => ['corpus', corpusId, 'search', query] as const,
  permissions: (corpusId: number) => ['corpus', corpusId, 'permissions'] as const,
};

export interface DocumentFilter {
  page: number;
  /** A step, or 'failed' for the documents whose processing failed. */
  status?: DocumentStep | 'failed';
  tag?: string;
  type?: string;
  includeDeleted: boolean;
}

export const corporaQuery = (page: number, q: string) =>
  queryOptions({
    queryKey: corpusKeys.list(page, q),
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/corpora', { params: { query: { page, page_size: PAGE_SIZE, ...(q === '' ? {} : { q }) } } }))).data,
    placeholderData: (previous) => previous,
  });

export const corpusQuery = (corpusId: number) =>
  queryOptions({
    queryKey: corpusKeys.detail(corpusId),
    queryFn: async () => (await unwrap(api.GET('/api/v2/corpora/{corpus_id}', { params: { path: { corpus_id: corpusId } } }))).data,
  });

/** A page of documents, with the progress sequence number it was asked at (see useDocumentProgress). */
export interface DocumentPageAt extends DocumentPage {
  askedAt: number;
}

export const documentsQuery = (corpusId: number, filter: DocumentFilter, progressSequence: () => number) =>
  queryOptions({
    queryKey: corpusKeys.documentPage(corpusId, filter),
    queryFn: async (): Promise<DocumentPageAt> => {
      const askedAt = progressSequence();
      const { status, tag, type, includeDeleted, page } = filter;
      const query = {
        page,
        page_size: PAGE_SIZE,
        ...(status === 'failed' ? { is_failed: true } : status !== undefined ? { step: status } : {}),
        ...(tag !== undefined && tag.trim() !== '' ? { tag: tag.trim() } : {}),
        ...(type ? { type } : {}),
        ...(includeDeleted ? { include_deleted: true } : {}),
      };
      const documents = (await unwrap(api.GET('/api/v2/corpora/{corpus_id}/documents', { params: { path: { corpus_id: corpusId }, query } }))).data;
      return { ...documents, askedAt };
    },
    placeholderData: (previous) => previous,
  });

export const permissionsQuery = (corpusId: number) =>
  queryOptions({
    queryKey: corpusKeys.permissions(corpusId),
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/corpora/{corpus_id}/permissions', { params: { path: { corpus_id: corpusId } } }))).data.items,
  });

export const searchQuery = (corpusId: number, query: string) =>
  queryOptions({
    queryKey: corpusKeys.search(corpusId, query),
    queryFn: async () =>
      (await unwrap(api.POST('/api/v2/corpora/{corpus_id}/search', { params: { path: { corpus_id: corpusId } }, body: { query, limit: 10 } }))).data,
    enabled: query !== '',
    staleTime: 0,
  });

const RANK: Record<CorpusPermission, number> = { read: 1, write: 2, manage: 3 };

/** Whether the caller's permission on a corpus allows what `needed` names (docs/authorization.md). */
export function mayOnCorpus(held: CorpusPermission, needed: CorpusPermission): boolean {
  return RANK[held] >= RANK[needed];
}
