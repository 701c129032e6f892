// One conversation: the thread's questions and answers (stored, then those asked in this page), the
// agent's starters on an empty thread, the thread's files and the question box. Asking streams the
// answer in (askRun.ts); the thread list and the stored answers are read again once it has ended.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { AskRun } from './askRun';
import { type Agent, chatKeys, fetchThreadResponses } from './chatQueries';
import { Composer } from './Composer';
import { LiveExchange, StoredExchange } from './Exchange';
import { addRun, conversationKey, moveRun, useConversationRuns } from './runStore';
import { Starters } from './Starters';
import { ThreadFiles } from './ThreadFiles';

interface ConversationProps {
  agent: Agent;
  threadId: number | undefined;
  /** Whether the signed-in person owns the thread (a new one is theirs): only they ask in it and give it files. */
  ownsThread: boolean;
  /** Organization owners and admins remove files of any thread they see. */
  isAdmin: boolean;
}

const NO_SUBSCRIPTION = () => () => undefined;

export function Conversation({ agent, threadId, ownsThread, isAdmin }: ConversationProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const key = conversationKey(agent.id, threadId);
  const runs = useConversationRuns(key);
  const stored = useQuery({ queryKey: chatKeys.responses(threadId ?? 0), queryFn: () => fetchThreadResponses(threadId ?? 0), enabled: threadId !== undefined });

  // Whether the newest answer is still being written: a boolean, so the conversation re-renders when
  // it starts and ends, not with every piece of the answer.
  const lastRun = runs.at(-1);
  const busy = useSyncExternalStore(lastRun?.subscribe ?? NO_SUBSCRIPTION, () => lastRun?.isActive ?? false);

  const openThread = useCallback((id: number) => void navigate(`/agents/${agent.id}/chat/${id}`, { replace: threadId === undefined }), [navigate, agent.id, threadId]);

  const ask = useCallback(
    (query: string): Promise<boolean> => {
      const run = new AskRun({
        agentId: agent.id,
        threadId,
        query,
        onCreated: ({ threadId: opened }) => {
          void queryClient.invalidateQueries({ queryKey: chatKeys.threads(agent.id) });
          if (threadId !== undefined) return;
          // The new thread has its id now: the answer moves to it, and the address follows if the person is still here.
          moveRun(run, key, conversationKey(agent.id, opened));
          if (window.location.pathname === `/agents/${agent.id}/chat`) openThread(opened);
        },
        onSettled: (settled) => {
          const opened = settled.getSnapshot().threadId;
          if (opened === undefined) return;
          void queryClient.invalidateQueries({ queryKey: chatKeys.threads(agent.id) });
          void queryClient.invalidateQueries({ queryKey: chatKeys.responses(opened) });
        },
      });
      addRun(key, run);
      return run.accepted;
    },
    [agent.id, threadId, key, queryClient, openThread],
  );

  // Answers asked here are shown live, with where their tool calls happened; their stored copies are left out.
  const liveIds = new Set(runs.map((run) => run.getSnapshot().responseId));
  const past = (stored.data ?? []).filter((response) => !liveIds.has(response.id));
  const isEmpty = past.length === 0 && runs.length === 0 && (threadId === undefined || stored.isSuccess);
  const disabledReason =
    agent.status === 'inactive'
      ? 'This agent is inactive: it does not answer until it is activated again.'
      : ownsThread
        ? undefined
        : 'This is someone else’s thread: you can read it, but only its owner asks in it.';

  return (
    <div className="conversation">
      <div className="exchanges">
        {threadId !== undefined && stored.isPending && <Loading label="Loading the conversation…" />}
        <ErrorNote error={stored.error} title="The conversation could not be loaded." />
        {isEmpty && (
          <div className="conversation-empty">
            <p className="muted">{threadId === undefined ? `Ask ${agent.name} a question.` : 'No questions in this thread yet.'}</p>
            <Starters starters={agent.conversation_starters} onAsk={(starter) => void ask(starter)} isDisabled={busy || disabledReason !== undefined} />
          </div>
        )}
        {past.map((response) => (
          <StoredExchange key={response.id} response={response} />
        ))}
        {runs.map((run) => (
          <LiveExchange key={run.key} run={run} />
        ))}
      </div>
      <p className="visually-hidden" role="status">
        {busy ? 'Answering…' : ''}
      </p>
      <div className="composer-dock">
        <ThreadFiles agentId={agent.id} threadId={threadId} canGive={ownsThread} canRemove={ownsThread || isAdmin} onThreadOpened={openThread} />
        <Composer onSend={ask} onStop={() => lastRun?.stop()} busy={busy} disabledReason={disabledReason} />
      </div>
    </div>
  );
}
