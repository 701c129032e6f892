// The types of analytics-seed.mjs, for the TypeScript benchmarks that reuse it.
import type Database from 'better-sqlite3';
import type { AnalyticsWorld } from './analytics-world.mjs';

export interface AnalyticsPlan {
  events: number;
  days: number;
  endMs: number;
  responses: number;
  documents: number;
  chunksPerDocument: number;
}

export interface AnalyticsSink {
  insert(table: string, columns: string[], rows: unknown[][]): Promise<void>;
}

export declare function analyticsPlan(options: { events: number; days: number; endMs: number }): AnalyticsPlan;
export declare function seedAnalytics(sink: AnalyticsSink, world: AnalyticsWorld, plan: AnalyticsPlan, log: (message: string) => void): Promise<{ responses: number; threads: number }>;
export declare function sqliteSink(db: Database.Database): AnalyticsSink;
export declare function postgresSink(client: unknown): AnalyticsSink;
