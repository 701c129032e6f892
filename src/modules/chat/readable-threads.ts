// Which threads a person may read, as a condition of a query over chat_threads (alias t): their own,
// and those with an agent of a team they lead. Owners and admins read every thread of their
// organization and pass `everything`. Used by the repositories of threads, responses and chat logs,
// as the condition of readable-threads.sql.ts.

export interface ThreadReader {
  userId: number;
  /** Owners and admins: every thread of the organization. */
  everything: boolean;
}
