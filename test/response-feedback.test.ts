// One agent response and what people say about it: votes and ratings (one each per person,
// changeable), written feedback, comments (deleted by their author or an admin), reviews (owners,
// admins and the agent's team leads; kept as a trail), pins and tags; and a project's responses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createResponse, createThread } from './support/chat.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { addTeammate, createProject, createTeam } from './support/people.js';

describe.each(databaseKinds)('response feedback (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let other: TestUser;
  let lead: TestUser;
  let foreigner: TestUser;
  let teamAgentId: number;
  let responseUrl: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    owner = await createUser(t.app, { role: 'member' });
    other = await createUser(t.app, { role: 'member' });
    lead = await createUser(t.app, { role: 'viewer' });
    foreigner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const team = await createTeam(admin);
    await addTeammate(admin, team.id, lead, 'lead');
    teamAgentId = (await createAgent(admin, { team_id: team.id })).id;
    responseUrl = `/api/v2/responses/${await createResponse(t.app, await createThread(owner, teamAgentId))}`;
  });
  afterAll(() => t.close());

  const newResponseUrl = async () => `/api/v2/responses/${await createResponse(t.app, await createThread(owner, teamAgentId))}`;

  it('shows a response as §8 fixes it, with its feedback figures, to those who see its thread', async () => {
    const reply = await owner.api.get(responseUrl);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      agent_id: teamAgentId,
      status: 'completed',
      error: null,
      tokens: { prompt: 100, completion: 20, total: 120, estimated: false },
      cost: 0.0001,
      model: 'test-model',
      pinned: false,
      tags: [],
      created_by: owner.email,
      feedback: { up: 0, down: 0, my_vote: null, my_rating: null, average_rating: null, ratings: 0, feedback: 0, comments: 0, reviews: 0, latest_review: null },
    });
    expect(reply.body.data.citations[0]).toMatchObject({ document_id: 1, source: 'handbook.pdf', page: 3 });
    expect((await lead.api.get(responseUrl)).status).toBe(200);
    expect((await admin.api.get(responseUrl)).status).toBe(200);
    for (const stranger of [other, foreigner]) {
      const refused = await stranger.api.get(responseUrl);
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('not_found');
    }
    expect((await owner.api.get('/api/v2/responses/999999')).status).toBe(404);
    expect((await owner.api.get('/api/v2/responses/0')).status).toBe(400);
  });

  it('keeps one vote per person, changeable and removable', async () => {
    const url = await newResponseUrl();
    expect((await owner.api.put(`${url}/vote`, { vote: 'up' })).body.data.feedback).toMatchObject({ up: 1, down: 0, my_vote: 'up' });
    expect((await owner.api.put(`${url}/vote`, { vote: 'down' })).body.data.feedback).toMatchObject({ up: 0, down: 1, my_vote: 'down' });
    const byAdmin = await admin.api.put(`${url}/vote`, { vote: 'up' });
    expect(byAdmin.body.data.feedback).toMatchObject({ up: 1, down: 1, my_vote: 'up' });
    expect((await owner.api.get(url)).body.data.feedback.my_vote).toBe('down');
    expect((await owner.api.put(`${url}/vote`, { vote: null })).body.data.feedback).toMatchObject({ up: 1, down: 0, my_vote: null });
    expect((await owner.api.put(`${url}/vote`, { vote: 'sideways' })).status).toBe(400);
    expect((await owner.api.put(`${url}/vote`, {})).status).toBe(400);
    expect((await other.api.put(`${url}/vote`, { vote: 'up' })).status).toBe(404);
    expect((await foreigner.api.put(`${url}/vote`, { vote: 'up' })).status).toBe(404);
  });

  it('takes ratings from 1 to 5, one per person, and averages them', async () => {
    const url = await newResponseUrl();
    for (const rating of [0, 6, 2.5, '3']) {
      const refused = await owner.api.put(`${url}/rating`, { rating });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0].pointer).toBe('/body/rating');
    }
    expect((await owner.api.put(`${url}/rating`, { rating: 1 })).body.data.feedback).toMatchObject({ my_rating: 1, ratings: 1, average_rating: 1 });
    expect((await owner.api.put(`${url}/rating`, { rating: 5 })).body.data.feedback).toMatchObject({ my_rating: 5, ratings: 1, average_rating: 5 });
    expect((await lead.api.put(`${url}/rating`, { rating: 2 })).body.data.feedback).toMatchObject({ my_rating: 2, ratings: 2, average_rating: 3.5 });
    expect((await admin.api.put(`${url}/rating`, { rating: 2 })).body.data.feedback).toMatchObject({ ratings: 3, average_rating: 3 });
    expect((await lead.api.put(`${url}/rating`, { rating: null })).body.data.feedback).toMatchObject({ my_rating: null, ratings: 2, average_rating: 3.5 });
  });

  it('records written feedback', async () => {
    const url = await newResponseUrl();
    const reply = await owner.api.post(`${url}/feedback`, { text: 'Too long.' });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ text: 'Too long.', user_id: owner.id, created_by: owner.email });
    expect((await owner.api.post(`${url}/feedback`, { text: '' })).status).toBe(400);
    expect((await other.api.post(`${url}/feedback`, { text: 'x' })).status).toBe(404);
    expect((await owner.api.get(url)).body.data.feedback.feedback).toBe(1);
  });

  it('lists comments oldest first; their author or an admin deletes them, others who see them may not', async () => {
    const url = await newResponseUrl();
    const mine = (await owner.api.post(`${url}/comments`, { text: 'first' })).body.data;
    const leads = (await lead.api.post(`${url}/comments`, { text: 'second' })).body.data;
    const admins = (await admin.api.post(`${url}/comments`, { text: 'third' })).body.data;
    const list = await owner.api.get(`${url}/comments`);
    expect(list.body.data.items.map((comment: { text: string }) => comment.text)).toEqual(['first', 'second', 'third']);
    expect(list.body.data.total).toBe(3);
    expect((await owner.api.get(`${url}/comments?page=2&page_size=2`)).body.data.items.map((comment: { id: number }) => comment.id)).toEqual([admins.id]);

    const refused = await lead.api.delete(`${url}/comments/${mine.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await owner.api.delete(`${url}/comments/${leads.id}`)).status).toBe(403);
    expect((await other.api.delete(`${url}/comments/${mine.id}`)).status).toBe(404);
    expect((await foreigner.api.delete(`${url}/comments/${mine.id}`)).status).toBe(404);
    const otherUrl = await newResponseUrl();
    expect((await owner.api.delete(`${otherUrl}/comments/${mine.id}`)).status).toBe(404);

    expect((await owner.api.delete(`${url}/comments/${mine.id}`)).body.data).toEqual({ id: mine.id });
    expect((await admin.api.delete(`${url}/comments/${leads.id}`)).status).toBe(200);
    expect((await owner.api.delete(`${url}/comments/${mine.id}`)).status).toBe(404);
    const left = await owner.api.get(`${url}/comments`);
    expect(left.body.data.items.map((comment: { id: number }) => comment.id)).toEqual([admins.id]);
    expect((await owner.api.get(url)).body.data.feedback.comments).toBe(1);
    expect((await other.api.get(`${url}/comments`)).status).toBe(404);
  });

  it('takes reviews from owners, admins and the agent’s team leads, kept as a trail', async () => {
    const url = await newResponseUrl();
    const refused = await owner.api.post(`${url}/reviews`, { verdict: 'approved' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await other.api.post(`${url}/reviews`, { verdict: 'approved' })).status).toBe(404);
    expect((await lead.api.post(`${url}/reviews`, { verdict: 'maybe' })).status).toBe(400);

    const first = await lead.api.post(`${url}/reviews`, { verdict: 'needs_changes', note: 'Cites the old policy.' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ verdict: 'needs_changes', note: 'Cites the old policy.', user_id: lead.id, created_by: lead.email });
    const second = await admin.api.post(`${url}/reviews`, { verdict: 'approved' });
    expect(second.body.data).toMatchObject({ verdict: 'approved', note: '' });

    const trail = await owner.api.get(`${url}/reviews`);
    expect(trail.status).toBe(200);
    expect(trail.body.data.items.map((review: { verdict: string }) => review.verdict)).toEqual(['needs_changes', 'approved']);
    const figures = (await owner.api.get(url)).body.data.feedback;
    expect(figures.reviews).toBe(2);
    expect(figures.latest_review).toMatchObject({ id: second.body.data.id, verdict: 'approved', created_by: admin.email });
  });

  it('lets the thread’s owner and admins pin, unpin and tag a response', async () => {
    const url = await newResponseUrl();
    expect((await owner.api.put(`${url}/pin`)).body.data.pinned).toBe(true);
    expect((await owner.api.get(url)).body.data.pinned).toBe(true);
    expect((await admin.api.delete(`${url}/pin`)).body.data.pinned).toBe(false);
    expect((await lead.api.put(`${url}/pin`)).status).toBe(403);
    expect((await other.api.put(`${url}/pin`)).status).toBe(404);

    expect((await owner.api.put(`${url}/tags`, { tags: ['wrong', 'policy', 'wrong'] })).body.data.tags).toEqual(['policy', 'wrong']);
    expect((await owner.api.put(`${url}/tags`, { tags: ['kept'] })).body.data.tags).toEqual(['kept']);
    expect((await lead.api.put(`${url}/tags`, { tags: ['x'] })).status).toBe(403);
    expect((await owner.api.put(`${url}/tags`, { tags: 'kept' })).status).toBe(400);
    expect((await foreigner.api.put(`${url}/tags`, { tags: [] })).status).toBe(404);
  });

  it('lists a project’s responses that the caller may see, newest first', async () => {
    const project = await createProject(admin);
    const plainAgent = (await createAgent(admin)).id;
    const teamThread = await createThread(owner, teamAgentId);
    const plainThread = await createThread(other, plainAgent);
    const older = await createResponse(t.app, teamThread, { project_id: project.id });
    const newer = await createResponse(t.app, plainThread, { project_id: project.id });
    await createResponse(t.app, plainThread);
    const ids = async (user: TestUser) => (await user.api.get(`/api/v2/projects/${project.id}/responses`)).body.data.items.map((item: { id: number }) => item.id);
    expect(await ids(admin)).toEqual([newer, older]);
    expect(await ids(owner)).toEqual([older]);
    expect(await ids(other)).toEqual([newer]);
    expect(await ids(lead)).toEqual([older]);
    const page = await admin.api.get(`/api/v2/projects/${project.id}/responses?page_size=1`);
    expect(page.body.data).toMatchObject({ total: 2, page_size: 1 });
    expect((await admin.api.get('/api/v2/projects/999999/responses')).status).toBe(404);
    expect((await foreigner.api.get(`/api/v2/projects/${project.id}/responses`)).status).toBe(404);
  });
});
