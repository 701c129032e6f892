// The rules of conditional reads (RFC 9110 §8.8.3, §13.1.2) that every route with an ETag follows:
// tags that name their parts without revealing them and never collide across parts, If-None-Match
// read as a list with weak comparison, `*`, and a malformed field ignored.
import { describe, expect, it } from 'vitest';
import { entityTag, heldTags, notModified } from '../src/http/conditional-get.js';

describe('entity tags', () => {
  it('are strong, opaque, and differ whenever a part differs', () => {
    const tag = entityTag(['corpus-documents', 1, 7, 'epoch-3', 'json']);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTag(['corpus-documents', 1, 7, 'epoch-3', 'json'])).toBe(tag);
    expect(entityTag(['corpus-documents', 2, 7, 'epoch-3', 'json'])).not.toBe(tag); // another organization
    expect(entityTag(['corpus-documents', 1, 8, 'epoch-3', 'json'])).not.toBe(tag); // a new version
    expect(entityTag(['corpus-documents', 1, 7, 'epoch-4', 'json'])).not.toBe(tag); // grants changed
    // Parts never run into each other: a number and the same digits as text, or split differently.
    expect(entityTag([1, 23])).not.toBe(entityTag([12, 3]));
    expect(entityTag(['1'])).not.toBe(entityTag([1]));
    expect(entityTag([null])).not.toBe(entityTag(['']));
    expect(tag).not.toContain('epoch');
  });
});

describe('If-None-Match', () => {
  const tag = entityTag(['x', 1]);
  const opaque = tag.slice(1, -1);

  it('matches the current tag, strong or weak, alone or in a list', () => {
    expect(notModified(tag, tag)).toBe(true);
    expect(notModified(`W/${tag}`, tag)).toBe(true);
    expect(notModified(`"other", ${tag}`, tag)).toBe(true);
    expect(notModified(['"other"', tag], tag)).toBe(true);
    expect(notModified(`"other",,W/"more" , ${tag}`, tag)).toBe(true);
  });

  it('does not match another tag, nothing, or a field it cannot read', () => {
    expect(notModified('"other"', tag)).toBe(false);
    expect(notModified(undefined, tag)).toBe(false);
    expect(notModified('', tag)).toBe(false);
    expect(notModified(opaque, tag)).toBe(false); // unquoted: malformed
    expect(notModified(`${tag}, nonsense`, tag)).toBe(false);
    expect(notModified(`"a"b", ${tag}`, tag)).toBe(false);
  });

  it('reads * as any current representation', () => {
    expect(heldTags(' * ')).toBe('*');
    expect(notModified('*', tag)).toBe(true);
    expect(heldTags(`W/"a", "b"`)).toEqual(['a', 'b']);
  });
});
