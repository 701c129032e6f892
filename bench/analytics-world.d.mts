// The types of analytics-world.mjs, for the TypeScript benchmarks that reuse it.
import type { ApiClient } from './lib/api-client.js';
import type { ChildServer } from './lib/child-server.js';
import type { CleanupStack } from './lib/cleanup.js';

export declare const ADMIN_EMAIL: string;

export interface AnalyticsWorld {
  organizationId: number;
  agents: { id: number; teamId: number; projectId: number }[];
  corpora: number[];
  users: number[];
  firstDocumentId: number;
  firstThreadId: number;
  firstResponseId: number;
}

export declare function startServer(cleanup: CleanupStack, dataDir: string, password: string, databaseUrl: string | undefined): Promise<ChildServer>;
export declare function ownerClient(server: ChildServer, password: string): Promise<ApiClient>;
export declare function buildWorld(client: ApiClient): Promise<AnalyticsWorld>;
