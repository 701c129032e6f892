import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { readEnvFile, withEnvFile } from '../src/env-file.js';

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
      imageBytes: 4 * 1024 * 1024,
      requestsPerMinute: 600,
      loginsPerMinute: 20,
      toolTimeoutMs: 15_000,
      toolResponseBytes: 1024 * 1024,
      toolOutputCharacters: 16_000,
      toolSteps: 5,
      answerBudgetUsd: 1,
      llmTimeoutMs: 120_000,
      toolImportBytes: 32 * 1024 * 1024,
      toolImportOperations: 5_000,
      toolImportSchemaParts: 5_000,
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

  it('SHUTDOWN_GRACE_MS: one model call and a margin by default, following LIMIT_LLM_TIMEOUT_MS; checked', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(135_000);
    expect(loadConfig({ LIMIT_LLM_TIMEOUT_MS: '30000' }).shutdownGraceMs).toBe(45_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '5000' }).shutdownGraceMs).toBe(5000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '0' }).shutdownGraceMs).toBe(0);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '10s' })).toThrow(/SHUTDOWN_GRACE_MS must be an integer/);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '3600001' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });

  it('logs pretty on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('TRUST_PROXY: off by default; true, a hop count, or addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 172.16.0.0/12,::1' }).trustProxy).toEqual(['10.0.0.1', '172.16.0.0/12', '::1']);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '0' })).toThrow(/TRUST_PROXY/);
  });

  it('CORS_ORIGINS: none by default; origins or *', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    for (const bad of ['app.example.com', 'https://app.example.com/', 'https://app.example.com/path', 'ftp://x.example.com']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
  });

  it('reads .env of a folder under the environment, which wins', () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-platform-env-'));
    try {
      expect(withEnvFile({ PORT: '1' }, folder)).toEqual({ PORT: '1' });
      writeFileSync(join(folder, '.env'), '# comment\nPORT=9000\nexport HOST=0.0.0.0\nADMIN_PASSWORD="a password with # inside"\n');
      expect(readEnvFile(folder)).toEqual({ PORT: '9000', HOST: '0.0.0.0', ADMIN_PASSWORD: 'a password with # inside' });
      const config = loadConfig(withEnvFile({ PORT: '9100' }, folder));
      expect(config.port).toBe(9100);
      expect(config.host).toBe('0.0.0.0');
      expect(config.adminPassword).toBe('a password with # inside');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
