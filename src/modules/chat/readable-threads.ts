// Which threads a person may read, as a condition of a query over chat_threads (alias t): their own,
// and those with an agent of a team they lead. Owners and admins read every thread of their
// organization and pass `everything`. Used by the repositories of threads, responses and chat logs.
import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface ThreadReader {
  userId: number;
  /** Owners and admins: every thread of the organization. */
  everything: boolean;
}

type WithThreads = DB & { t: DB['chat_threads'] };

export function readableBy(reader: ThreadReader) {
  return (eb: ExpressionBuilder<WithThreads, 't'>) => {
    if (reader.everything) return eb.lit(true);
    const ledAgents = eb
      .selectFrom('agents as led')
      .innerJoin('team_members as m', 'm.team_id', 'led.team_id')
      .select('led.id')
      .where('m.user_id', '=', reader.userId)
      .where('m.role', '=', 'lead');
    return eb.or([eb('t.user_id', '=', reader.userId), eb('t.agent_id', 'in', ledAgents)]);
  };
}
