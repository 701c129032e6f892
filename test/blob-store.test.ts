import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../src/storage/blob-store.js';

const root = mkdtempSync(join(tmpdir(), 'agent-platform-blobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('local blob store', () => {
  const store = new LocalBlobStore(root);

  it('stores under keys it makes, reads back, deletes', async () => {
    const key = await store.put(Buffer.from('hello'));
    expect(key).toMatch(/^[0-9a-f]{2}\/[0-9a-f-]{36}$/);
    expect((await store.get(key))?.toString()).toBe('hello');
    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
  });

  it('refuses keys it did not make, so no path can be smuggled in', async () => {
    for (const key of ['../secret.key', '/etc/passwd', 'ab/../../x', 'ab/not-a-uuid']) {
      await expect(store.get(key)).rejects.toThrow('Not a blob key');
    }
  });

  it('leaves no partial file behind', async () => {
    await store.put(Buffer.alloc(1024));
    const files = readdirSync(root, { recursive: true }).map(String);
    expect(files.some((file) => file.endsWith('.partial'))).toBe(false);
  });
});
