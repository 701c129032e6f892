import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
};

describe('embedding configuration', () => {
  it('has no embedder without EMBEDDING_BASE_URL: retrieval is full text', () => {
    expect(loadConfig({}).embedding).toBeUndefined();
    expect(loadConfig({ EMBEDDING_MODEL: 'unused' }).embedding).toBeUndefined();
  });

  it('reads the provider, with defaults for batches, deadline and retries', () => {
    const config = loadConfig({ EMBEDDING_BASE_URL: 'https://api.example.com/v1/', EMBEDDING_MODEL: 'text-embedding-3-small', EMBEDDING_API_KEY: 'sk-secret' });
    expect(config.embedding).toEqual({
      baseUrl: 'https://api.example.com/v1',
      model: 'text-embedding-3-small',
      apiKey: 'sk-secret',
      dimensions: undefined,
      batchSize: 64,
      timeoutMs: 30_000,
      maxRetries: 3,
    });
    const tuned = loadConfig({
      EMBEDDING_BASE_URL: 'http://127.0.0.1:11434/v1',
      EMBEDDING_MODEL: 'nomic-embed-text',
      EMBEDDING_DIMENSIONS: '768',
      EMBEDDING_BATCH_SIZE: '16',
      EMBEDDING_TIMEOUT_MS: '5000',
      EMBEDDING_MAX_RETRIES: '0',
    });
    expect(tuned.embedding).toMatchObject({ apiKey: undefined, dimensions: 768, batchSize: 16, timeoutMs: 5000, maxRetries: 0 });
  });

  it('lists every problem, and never the key', () => {
    const problems = problemsOf({
      EMBEDDING_BASE_URL: 'ftp://models.example.com',
      EMBEDDING_API_KEY: 'sk-do-not-print-me',
      EMBEDDING_DIMENSIONS: '0',
      EMBEDDING_BATCH_SIZE: 'many',
      EMBEDDING_TIMEOUT_MS: '5',
      EMBEDDING_MAX_RETRIES: '99',
    });
    expect(problems.map((problem) => problem.split(' ')[0])).toEqual([
      'EMBEDDING_DIMENSIONS',
      'EMBEDDING_BATCH_SIZE',
      'EMBEDDING_TIMEOUT_MS',
      'EMBEDDING_MAX_RETRIES',
      'EMBEDDING_BASE_URL',
      'EMBEDDING_MODEL',
    ]);
    expect(problems.join('\n')).not.toContain('sk-do-not-print-me');
  });

  it('refuses credentials in the URL: they would reach logs', () => {
    const problems = problemsOf({ EMBEDDING_BASE_URL: 'https://user:sk-hidden@api.example.com/v1', EMBEDDING_MODEL: 'm' });
    expect(problems).toEqual(['EMBEDDING_BASE_URL must not carry credentials, a query or a fragment; put the key in EMBEDDING_API_KEY']);
    expect(problemsOf({ EMBEDDING_BASE_URL: 'not a url', EMBEDDING_MODEL: 'm' })).toHaveLength(1);
  });
});
