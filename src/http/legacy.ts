// The legacy generation's lists: a bare JSON array, the whole list unless ?limit=&offset= ask for a
// window, and the size of the whole list in X-Total-Count.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { ListSlice, ListWindow } from '../pagination.js';

export const TOTAL_COUNT_HEADER = 'x-total-count';

export const legacyListQuery = (pageSizeMax: number) =>
  Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: pageSizeMax, description: `Items to return, at most ${pageSizeMax}; all when omitted` })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Items to skip' })),
  });

export function legacyWindow(query: { limit?: number | undefined; offset?: number | undefined }): ListWindow {
  return { limit: query.limit, offset: query.offset ?? 0 };
}

/** The items as a bare array, with the whole list's size in X-Total-Count. */
export function legacyList<T>(reply: FastifyReply, slice: ListSlice<T>): T[] {
  reply.header(TOTAL_COUNT_HEADER, String(slice.total));
  return slice.items;
}

export const LEGACY_LIST_DESCRIPTION = 'A bare JSON array; ?limit=&offset= return a window of it, and X-Total-Count gives the size of the whole list.';
