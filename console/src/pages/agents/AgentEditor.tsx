// An existing agent's page: its configuration as a form saved against the version it was opened at
// (If-Match), its status, its image, and deleting it. The form keeps the version it started from:
// a change made elsewhere meanwhile makes the save a 412 and is said, never overwritten. The
// person's own status and image changes move that version on (each is exactly one version).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { Link } from 'react-router';
import { Button } from '../../ui/Fields';
import { SuccessNote } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { updateAgent } from './agentChanges';
import { changesOf, draftOf, fieldErrorsOf, textFieldErrors, type AgentDraft } from './agentDraft';
import { AgentFormFields } from './AgentFormFields';
import { AgentImagePanel } from './AgentImagePanel';
import type { AgentAbilities } from './agentPermissions';
import { agentKeys, refreshAgentLists, type Agent } from './agentQueries';
import { AgentStatusSwitch } from './AgentStatusSwitch';
import { DeleteAgentButton } from './DeleteAgentButton';
import { isConflict, SaveBar } from './SaveBar';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';

interface AgentEditorProps {
  /** The agent as it was when the form opened. */
  agent: Agent;
  /** The agent as the page last read it (it may have moved on since the form opened). */
  latest: Agent;
  abilities: AgentAbilities;
  onReload: () => void;
  justCreated: boolean;
}

export function AgentEditor({ agent, latest, abilities, onReload, justCreated }: AgentEditorProps) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(agent);
  const [draft, setDraft] = useState(() => draftOf(agent));
  const changes = changesOf(saved, draft);
  const hasChanges = Object.keys(changes).length > 0;
  const isReadOnly = !abilities.canChange;

  const remember = (changed: Agent) => {
    queryClient.setQueryData(agentKeys.one(changed.id), changed);
    void refreshAgentLists(queryClient);
  };

  const save = useMutation({
    mutationFn: () => updateAgent(saved.id, saved.version, changes),
    onSuccess: (updated) => {
      setSaved(updated);
      remember(updated);
    },
  });

  /** The person's own status or image change: the form's version moves on only if nothing else came between. */
  const adoptOwnChange = (changed: Agent) => {
    setSaved((before) => (changed.version === before.version + 1 ? changed : before));
    remember(changed);
  };

  const fieldErrors = isConflict(save.error) ? { byField: {}, allPlaced: false } : fieldErrorsOf(save.error);
  const changedElsewhere = latest.version > saved.version && !isConflict(save.error);

  return (
    <>
      <PageHeader title={saved.name} description={saved.description === '' ? undefined : saved.description}>
        <Link to={`/agents/${saved.id}/chat`} className="button">
          Chat
        </Link>
        <Link to={`/agents/${saved.id}/history`} className="button">
          History
        </Link>
      </PageHeader>
      {justCreated && <SuccessNote>Agent created.</SuccessNote>}
      {abilities.reason !== null && <p className="note note-info">{abilities.reason}</p>}
      {changedElsewhere && (
        <div className="note note-info agent-conflict" role="status">
          <p>Someone else changed this agent since you opened it; saving here would be refused. Reload it to see their changes.</p>
          <Button onPress={onReload}>Reload the agent</Button>
        </div>
      )}
      <div className="card agent-controls">
        <AgentStatusSwitch agent={latest} canChange={abilities.canChange} onChanged={adoptOwnChange} />
        {abilities.canDelete && <DeleteAgentButton agent={saved} />}
      </div>
      <UnsavedChangesGuard isDirty={hasChanges} />
      <Form
        className="agent-form"
        validationErrors={textFieldErrors(fieldErrors.byField)}
        onSubmit={(event) => {
          event.preventDefault();
          if (hasChanges && !save.isPending) save.mutate();
        }}
      >
        <AgentFormFields
          draft={draft}
          onChange={(change: Partial<AgentDraft>) => setDraft((before) => ({ ...before, ...change }))}
          errors={fieldErrors.byField}
          isReadOnly={isReadOnly}
          savedTeamId={saved.team_id}
          image={
            <AgentImagePanel
              agent={latest}
              canChange={abilities.canChange}
              onChanged={(changed, imageKey) => {
                // Another change may have come after the image: then the version is not the image's alone.
                if (changed.image_key === imageKey) adoptOwnChange(changed);
                else remember(changed);
              }}
            />
          }
        />
        {!isReadOnly && (
          <SaveBar
            label="Save changes"
            pendingLabel="Saving…"
            isPending={save.isPending}
            hasChanges={hasChanges}
            error={save.error}
            errorsPlaced={fieldErrors.allPlaced}
            isSaved={save.isSuccess}
            onReload={onReload}
          />
        )}
      </Form>
    </>
  );
}
