// The threads a reader may read (readable-threads.ts) as a condition of a query over chat_threads
// (alias t).
import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ThreadReader } from './readable-threads.js';

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
