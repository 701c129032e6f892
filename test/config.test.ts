import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('defaults to the embedded database on 127.0.0.1:8080 with the limits of the interface', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: resolve('data'),
      databaseUrl: undefined,
      logLevel: 'info',
      secretKey: undefined,
      adminEmail: undefined,
      adminPassword: undefined,
      passwordTokenTtlHours: 72,
    });
    expect(config.limits).toEqual({
      jsonBodyBytes: 1024 * 1024,
      uploadFileBytes: 50 * 1024 * 1024,
      uploadFiles: 20,
      pageSizeMax: 100,
      logoBytes: 2 * 1024 * 1024,
      requestsPerMinute: 600,
      loginsPerMinute: 20,
      toolTimeoutMs: 15_000,
      llmTimeoutMs: 120_000,
    });
  });

  it('reads each variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/somewhere',
      DATABASE_URL: 'postgres://u@h:5432/d',
      LOG_LEVEL: 'debug',
      ADMIN_EMAIL: 'boss@example.com',
      ADMIN_PASSWORD: 'a long enough password',
      SECRET_KEY: 'k'.repeat(40),
      LIMIT_PAGE_SIZE: '50',
      LIMIT_LOGO_BYTES: '4096',
      PASSWORD_TOKEN_TTL_HOURS: '12',
    });
    expect(config).toMatchObject({ port: 9000, host: '0.0.0.0', dataDir: '/tmp/somewhere', databaseUrl: 'postgres://u@h:5432/d', logLevel: 'debug' });
    expect(config.limits.pageSizeMax).toBe(50);
    expect(config.limits.logoBytes).toBe(4096);
    expect(config.passwordTokenTtlHours).toBe(12);
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', ADMIN_PASSWORD: 'short', SECRET_KEY: 'tiny', LIMIT_PAGE_SIZE: '0' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(6);
    for (const variable of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'ADMIN_PASSWORD', 'SECRET_KEY', 'LIMIT_PAGE_SIZE']) {
      expect(problems.some((problem) => problem.startsWith(variable))).toBe(true);
    }
  });
});
