// The chat playground: ask an agent, see its answers stream in with their sources, tool calls and
// guardrails, and keep the conversation in threads. Routed at /agents/:agentId/chat and
// /agents/:agentId/chat/:threadId; the address carries the open thread, so a reload keeps it.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { agentQuery, llmConfigurationsQuery } from '../../api/queries';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { AgentTabs } from './AgentTabs';
import { type Agent, chatKeys, fetchThread } from './chatQueries';
import { Conversation } from './Conversation';
import { conversationKey, useConversationRuns } from './runStore';
import { ThreadList } from './ThreadList';
import './chat.css';

function idOf(value: string | undefined): number | undefined {
  return value !== undefined && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : undefined;
}

export default function ChatPage() {
  const params = useParams();
  const agentId = idOf(params.agentId);
  const threadId = idOf(params.threadId);
  const agent = useQuery({ ...agentQuery(agentId ?? 0), enabled: agentId !== undefined });

  if (agentId === undefined || (params.threadId !== undefined && threadId === undefined)) {
    return (
      <>
        <PageHeader title="Chat" />
        <ErrorNote error="This address names no agent or thread." />
        <Link to="/agents">All agents</Link>
      </>
    );
  }
  if (agent.isPending) return <Loading label="Loading the agent…" />;
  if (agent.isError) {
    return (
      <>
        <PageHeader title="Chat" />
        <ErrorNote error={agent.error} title="The agent could not be loaded." />
        <Link to="/agents">All agents</Link>
      </>
    );
  }
  return <ChatWithAgent agent={agent.data} threadId={threadId} />;
}

function ChatWithAgent({ agent, threadId }: { agent: Agent; threadId: number | undefined }) {
  const user = useUser();
  // The built-in offline answerer answers when the agent has no model of its own and the organization
  // no default one (docs/runtime.md "What answers").
  const hasNoModel = agent.llm_configuration_id === null;
  const organizationDefault = useQuery({
    ...llmConfigurationsQuery(agent.organization_id),
    enabled: hasNoModel,
    select: (configurations) => configurations.some((configuration) => configuration.is_default),
  });
  const answersOffline = hasNoModel && organizationDefault.data === false;
  const thread = useQuery({ queryKey: chatKeys.thread(threadId ?? 0), queryFn: () => fetchThread(threadId ?? 0), enabled: threadId !== undefined });
  // A thread opened by asking here is the person's own: its answer goes on showing while the thread loads.
  const askedHere = useConversationRuns(conversationKey(agent.id, threadId)).length > 0;
  const ownsThread = threadId === undefined || (thread.data === undefined ? askedHere : thread.data.user_id === user.id);

  return (
    <div className="chat-page">
      <PageHeader title={agent.name} description={agent.description === '' ? undefined : agent.description}>
        {agent.status !== 'active' && <span className={`badge ${agent.status === 'inactive' ? 'badge-danger' : 'badge-warning'}`}>{agent.status}</span>}
      </PageHeader>
      <AgentTabs agentId={agent.id} />
      {answersOffline && (
        <p className="note note-info offline-notice">
          <strong>No language model is configured for this agent.</strong> Answers come from the offline answerer, which quotes the best
          passages of the agent’s corpora. Choose a model in the agent’s settings, or set a default model for the organization.
        </p>
      )}
      <div className="chat-layout">
        <ThreadList agentId={agent.id} openThreadId={threadId} />
        <section className="chat-main" aria-labelledby="conversation-title">
          <h2 id="conversation-title" className="conversation-title">
            {threadId === undefined ? 'New thread' : (thread.data?.title ?? 'Thread')}
          </h2>
          <ErrorNote error={thread.error} title="The thread could not be opened." />
          {threadId !== undefined && thread.isPending && !askedHere && <Loading label="Loading the thread…" />}
          {(threadId === undefined || thread.isSuccess || (askedHere && !thread.isError)) && (
            <Conversation
              key={conversationKey(agent.id, threadId)}
              agent={agent}
              threadId={threadId}
              ownsThread={ownsThread}
              isAdmin={atLeast(user.role, 'admin')}
            />
          )}
        </section>
      </div>
    </div>
  );
}
