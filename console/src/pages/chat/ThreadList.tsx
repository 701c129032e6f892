// The person's threads with the agent, the most recently active first, beside the conversation: open
// one, start a new one, rename or delete one. On a phone the list folds away behind a button.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { NavLink, useNavigate } from 'react-router';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { type ChatThread, chatKeys, fetchThreads } from './chatQueries';
import { DeleteThreadDialog, RenameThreadDialog } from './ThreadDialogs';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

interface ThreadListProps {
  agentId: number;
  openThreadId: number | undefined;
}

export function ThreadList({ agentId, openThreadId }: ThreadListProps) {
  const navigate = useNavigate();
  const threads = useQuery({ queryKey: chatKeys.threads(agentId), queryFn: () => fetchThreads(agentId) });
  const [expanded, setExpanded] = useState(false);
  const [renaming, setRenaming] = useState<ChatThread | null>(null);
  const [deleting, setDeleting] = useState<ChatThread | null>(null);
  const chatPath = `/agents/${agentId}/chat`;

  return (
    <aside className={`chat-threads${expanded ? ' is-expanded' : ''}`} aria-label="Threads">
      <div className="chat-threads-bar">
        <Button className="chat-threads-toggle" aria-expanded={expanded} aria-controls="thread-list-panel" onPress={() => setExpanded(!expanded)}>
          {expanded ? 'Hide threads' : `Threads${threads.data === undefined ? '' : ` (${threads.data.length})`}`}
        </Button>
        <Button
          variant="primary"
          onPress={() => {
            setExpanded(false);
            void navigate(chatPath);
          }}
        >
          New thread
        </Button>
      </div>
      <div id="thread-list-panel" className="chat-threads-panel">
        <h2 className="chat-threads-title">Threads</h2>
        {threads.isPending && <Loading label="Loading threads…" />}
        <ErrorNote error={threads.error} title="The threads could not be loaded." />
        {threads.data?.length === 0 && <Empty>No threads yet: ask a question to start one.</Empty>}
        {threads.data !== undefined && threads.data.length > 0 && (
          <ul className="thread-list">
            {threads.data.map((thread) => (
              <li key={thread.id} className={thread.id === openThreadId ? 'thread-item is-open' : 'thread-item'}>
                <NavLink to={`${chatPath}/${thread.id}`} className="thread-link" onClick={() => setExpanded(false)}>
                  <span className="thread-title">{thread.title}</span>
                  <span className="thread-when muted">{when.format(new Date(thread.last_activity_on))}</span>
                </NavLink>
                <MenuTrigger>
                  <AriaButton className="button button-quiet icon-button" aria-label={`Actions for “${thread.title}”`}>
                    <span aria-hidden="true">⋯</span>
                  </AriaButton>
                  <Popover placement="bottom end">
                    <Menu
                      onAction={(action) => {
                        if (action === 'rename') setRenaming(thread);
                        else setDeleting(thread);
                      }}
                    >
                      <MenuItem id="rename">Rename</MenuItem>
                      <MenuItem id="delete">Delete</MenuItem>
                    </Menu>
                  </Popover>
                </MenuTrigger>
              </li>
            ))}
          </ul>
        )}
      </div>
      <RenameThreadDialog thread={renaming} onClose={() => setRenaming(null)} />
      <DeleteThreadDialog
        thread={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(thread) => {
          if (thread.id === openThreadId) void navigate(chatPath, { replace: true });
        }}
      />
    </aside>
  );
}
