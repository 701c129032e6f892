// The draft under review: the agents pages' own form (name, description, instructions, model, corpora,
// tools, guardrails, starters, team and project), every field editable; "Create agent" sends it to
// the normal create route and lands on the new agent's page.
import { Form } from 'react-aria-components';
import { Link } from 'react-router';
import { fieldErrorsOf, textFieldErrors, type AgentDraft } from '../agents/agentDraft';
import { AgentFormFields } from '../agents/AgentFormFields';
import { AgentImagePanel } from '../agents/AgentImagePanel';
import { SaveBar } from '../agents/SaveBar';
import { useCreateAgent } from '../agents/useCreateAgent';
import { UnsavedChangesGuard } from '../agents/UnsavedChangesGuard';

interface DraftReviewProps {
  draft: AgentDraft;
  onChange: (change: Partial<AgentDraft>) => void;
}

export function DraftReview({ draft, onChange }: DraftReviewProps) {
  const create = useCreateAgent(draft);
  const fieldErrors = fieldErrorsOf(create.error);
  return (
    <>
      {/* A draft not created yet is work the person would lose by leaving. */}
      <UnsavedChangesGuard isDirty={!create.isSuccess} />
      <Form
        className="agent-form"
        aria-labelledby="builder-review"
        validationErrors={textFieldErrors(fieldErrors.byField)}
        onSubmit={(event) => {
          event.preventDefault();
          if (!create.isPending) create.mutate();
        }}
      >
        <AgentFormFields
          draft={draft}
          onChange={onChange}
          errors={fieldErrors.byField}
          isReadOnly={false}
          image={<AgentImagePanel agent={null} canChange={false} onChanged={() => undefined} />}
        />
        <SaveBar label="Create agent" pendingLabel="Creating…" isPending={create.isPending} hasChanges error={create.error} errorsPlaced={fieldErrors.allPlaced} isSaved={false}>
          <Link to="/agents">Cancel</Link>
        </SaveBar>
      </Form>
    </>
  );
}
