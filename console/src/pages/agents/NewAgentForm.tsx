// Creating an agent: the same form as an agent's page, empty, saved with POST; then to the agent's page.
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { Link } from 'react-router';
import { useUser, type CurrentUser } from '../../session/session';
import { PageHeader } from '../../ui/PageHeader';
import { creationOf, emptyDraft, fieldErrorsOf, textFieldErrors, type AgentDraft } from './agentDraft';
import { AgentFormFields } from './AgentFormFields';
import { AgentImagePanel } from './AgentImagePanel';
import { CREATE_REASON, mayCreateAgents, mayCreateWithoutTeam, writableTeamIds } from './agentPermissions';
import { SaveBar } from './SaveBar';
import { useCreateAgent } from './useCreateAgent';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';

/** Where a new agent starts: in no team for members and above; else in the first team they write. */
function startingTeam(user: CurrentUser): number | null {
  return mayCreateWithoutTeam(user) ? null : (writableTeamIds(user)[0] ?? null);
}

export function NewAgentPage() {
  const user = useUser();
  if (!mayCreateAgents(user)) {
    return (
      <>
        <PageHeader title="New agent" />
        <p className="note note-info">{CREATE_REASON}</p>
        <Link to="/agents">Back to the agents</Link>
      </>
    );
  }
  return <NewAgentForm user={user} />;
}

function NewAgentForm({ user }: { user: CurrentUser }) {
  const [draft, setDraft] = useState(() => emptyDraft(startingTeam(user)));
  const isDirty = JSON.stringify(creationOf(draft)) !== JSON.stringify(creationOf(emptyDraft(startingTeam(user))));
  const create = useCreateAgent(draft);
  const fieldErrors = fieldErrorsOf(create.error);
  return (
    <>
      <PageHeader title="New agent" description="Give it a name and instructions; the rest can come later." />
      <UnsavedChangesGuard isDirty={isDirty && !create.isSuccess} />
      <Form
        className="agent-form"
        validationErrors={textFieldErrors(fieldErrors.byField)}
        onSubmit={(event) => {
          event.preventDefault();
          if (!create.isPending) create.mutate();
        }}
      >
        <AgentFormFields
          draft={draft}
          onChange={(change: Partial<AgentDraft>) => setDraft((before) => ({ ...before, ...change }))}
          errors={fieldErrors.byField}
          isReadOnly={false}
          image={<AgentImagePanel agent={null} canChange={false} onChanged={() => undefined} />}
        />
        <SaveBar
          label="Create agent"
          pendingLabel="Creating…"
          isPending={create.isPending}
          // Always offered: an empty name is said by its field (required), not by a greyed-out button.
          hasChanges
          error={create.error}
          errorsPlaced={fieldErrors.allPlaced}
          isSaved={false}
        >
          <Link to="/agents">Cancel</Link>
        </SaveBar>
      </Form>
    </>
  );
}
