// Fixtures of the people side, made through the HTTP routes: teams and teammates, projects, and
// uploads of images as multipart bodies.
import type { TeamRole } from '../../src/db/schema.js';
import type { TestUser } from './factories.js';

let sequence = 0;

async function created<T>(reply: { status: number; text: string; body: { data: T } }, what: string): Promise<T> {
  if (reply.status !== 201) throw new Error(`${what}: ${reply.status} ${reply.text}`);
  return reply.body.data;
}

export type TeamData = { id: number; name: string; [key: string]: unknown };
export type ProjectData = { id: number; name: string; team_ids: number[]; users: { id: number }[]; [key: string]: unknown };

export async function createTeam(lead: TestUser, overrides: Record<string, unknown> = {}): Promise<TeamData> {
  return created(await lead.api.post('/api/v2/teams', { name: `Team ${++sequence}`, ...overrides }), 'createTeam');
}

export async function addTeammate(manager: TestUser, teamId: number, user: TestUser, role: TeamRole): Promise<void> {
  await created(await manager.api.post(`/api/v2/teams/${teamId}/members`, { user_id: user.id, role }), 'addTeammate');
}

export async function createProject(creator: TestUser, overrides: Record<string, unknown> = {}): Promise<ProjectData> {
  return created(await creator.api.post('/api/v2/projects', { name: `Project ${++sequence}`, ...overrides }), 'createProject');
}

/** The smallest PNG signature followed by some bytes: enough for the type to be decided from the content. */
export function pngBytes(size = 64): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size)]);
}

const BOUNDARY = 'agent-platform-test-boundary';

/** A multipart/form-data body holding one file, with the headers to send it. */
export function multipartFile(bytes: Buffer, options: { filename?: string; contentType?: string; field?: string } = {}) {
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'logo.png'}"\r\n` +
    `Content-Type: ${options.contentType ?? 'application/octet-stream'}\r\n\r\n`;
  return {
    raw: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}
