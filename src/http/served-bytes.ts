// The bytes of the last answers of the version-tagged listings, kept by their entity tag: a 200 for a
// tag already served (another client, or one that lost its copy) sends the kept bytes without reading
// the rows or serialising them again. Safe because a tag names everything that decides the bytes
// (the versions moved with every write, the caller, the query, the representation) and is read before
// the rows: bytes kept under a tag are never older than it. Bounded: a least-recently-used set under a
// cap of characters in all, and an answer too large to be worth keeping is not kept. A listing makes
// one call here once its tag is read (`answer`): the 304 for a tag the client holds is part of it.
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { answeredNotModified } from './conditional-get.js';

/** The bytes of an answer and the headers that go with them (X-Total-Count of a legacy page). */
export interface ServedAnswer {
  body: string;
  headers: Readonly<Record<string, string>>;
}

/** An answer as a route makes it: a stream (too large to keep) is sent, never kept. */
export interface MadeAnswer {
  body: string | Readable;
  headers: Readonly<Record<string, string>>;
}

/** Characters kept in all (~8 MB as UTF-8 for the ASCII of JSON) and at most of one answer. */
export const SERVED_BYTES_CAP = 8 * 1024 * 1024;
export const SERVED_ANSWER_CAP = 1024 * 1024;

export class ServedBytes {
  private readonly answers: LRUCache<string, ServedAnswer>;

  constructor(
    capacity = SERVED_BYTES_CAP,
    private readonly answerCap = SERVED_ANSWER_CAP,
  ) {
    this.answers = new LRUCache({ maxSize: capacity, sizeCalculation: (answer) => Math.max(1, answer.body.length) });
  }

  /**
   * The whole conditional read of a tagged answer: the ETag, then a 304 with no body when the request's
   * If-None-Match holds the tag, else the answer kept under it, else the one `make` gives — a JSON body
   * already serialised, as the route's serialiser or the database wrote it (kept), or a stream (sent,
   * not kept). Call it once the caller is authorised: the tag was read with their access.
   */
  async answer(request: FastifyRequest, reply: FastifyReply, tag: string, make: () => Promise<MadeAnswer>): Promise<FastifyReply> {
    if (answeredNotModified(request, reply, tag)) return reply;
    return this.send(reply, tag, make);
  }

  private async send(reply: FastifyReply, tag: string, make: () => Promise<MadeAnswer>): Promise<FastifyReply> {
    let answer: MadeAnswer | undefined = this.answers.get(tag);
    if (answer === undefined) {
      answer = await make();
      if (typeof answer.body === 'string' && answer.body.length <= this.answerCap) this.answers.set(tag, { body: answer.body, headers: answer.headers });
    }
    for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
    return reply.type('application/json; charset=utf-8').send(answer.body);
  }

  /** Forgets every answer (a benchmark measuring the 200 that reads the rows). */
  clear(): void {
    this.answers.clear();
  }

  /** Answers kept and the characters they hold (for the metrics and the tests). */
  get size(): { answers: number; characters: number } {
    return { answers: this.answers.size, characters: this.answers.calculatedSize };
  }
}
