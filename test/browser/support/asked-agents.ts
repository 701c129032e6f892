// An organization with a little real usage for the analytics and chat logs pages: a corpus with a
// handbook, two agents on the fake model (one connected to the corpus), questions asked through the
// API (so usage events, responses and citations are the runtime's own), and votes on two answers.
import { agentWith, corpusWith } from '../../support/ask.js';
import type { ConsoleServer } from './console-server.js';

export const HANDBOOK = 'Parental leave lasts sixteen weeks. Holidays are twenty-five days a year, booked in the leave planner.';

export interface AskedAgents {
  handbook: { id: number; name: string };
  travel: { id: number; name: string };
  /** Response ids: three of the handbook agent's, then the travel agent's one. */
  responses: number[];
  /** The handbook answer voted up and the travel answer voted down. */
  upVoted: number;
  downVoted: number;
}

let sequence = 0;

export async function arrangeAskedAgents(server: ConsoleServer): Promise<AskedAgents> {
  const { admin, modelConfigurationId } = server;
  const n = ++sequence;
  const { corpusId } = await corpusWith(admin, [HANDBOOK]);
  const handbook = await agentWith(admin, [corpusId], { name: `Handbook helper ${n}`, llm_configuration_id: modelConfigurationId });
  const travel = await agentWith(admin, [], { name: `Travel desk ${n}`, llm_configuration_id: modelConfigurationId });
  const questions: [number, string][] = [
    [handbook.id, 'How long is parental leave?'],
    [handbook.id, 'How many holidays do I get?'],
    [handbook.id, 'Where do I book leave?'],
    [travel.id, 'Can I fly business class to Lisbon?'],
  ];
  const responses: number[] = [];
  // An answer that cites its first passage, so that the handbook's answers keep a citation.
  const answered = server.fake.answer;
  server.fake.answer = 'As the handbook says [1].';
  try {
    for (const [agentId, query] of questions) {
      const reply = await admin.api.post(`/api/v2/agents/${agentId}/responses`, { query });
      if (reply.status !== 201) throw new Error(`ask: ${reply.status} ${reply.text}`);
      responses.push(reply.body.data.id as number);
    }
  } finally {
    server.fake.answer = answered;
  }
  const [upVoted, downVoted] = [responses[0]!, responses[3]!];
  for (const [responseId, vote] of [
    [upVoted, 'up'],
    [downVoted, 'down'],
  ] as const) {
    const reply = await admin.api.put(`/api/v2/responses/${responseId}/vote`, { vote });
    if (reply.status !== 200) throw new Error(`vote: ${reply.status} ${reply.text}`);
  }
  return { handbook: { id: handbook.id, name: handbook.name }, travel: { id: travel.id, name: travel.name }, responses, upVoted, downVoted };
}
