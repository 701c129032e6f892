// The agent builder (/agents/builder): an agent described in words, a draft proposed by the
// organization's model (or the built-in rules), every field of it reviewed and changed at will, then
// created with the normal create route; the new agent's page follows. Drafting needs the
// chat-agent-creation feature, and creating agents the role that may.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { Link } from 'react-router';
import { useUser, type CurrentUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { PageHeader } from '../../ui/PageHeader';
import type { AgentDraft } from '../agents/agentDraft';
import { CREATE_REASON, mayCreateAgents, mayCreateWithoutTeam, writableTeamIds } from '../agents/agentPermissions';
import { builderFlagQuery, draftAgent, formOf, type BuilderResult } from './builder-api';
import { DraftOrigin } from './DraftOrigin';
import { DraftReview } from './DraftReview';
import '../agents/agents.css';
import './builder.css';

const TITLE = 'Describe an agent';
const FLAG_OFF = 'Drafting agents from a description is off for this organization: owners and admins turn it on under Organization, Settings (feature flags). You can still create an agent by hand.';

export default function AgentBuilderPage() {
  const user = useUser();
  const flag = useQuery(builderFlagQuery());
  const refusal = !mayCreateAgents(user) ? CREATE_REASON : flag.data === false ? FLAG_OFF : null;
  if (refusal !== null || flag.isPending || flag.error !== null) {
    return (
      <>
        <PageHeader title={TITLE} />
        {flag.isPending && <Loading />}
        <ErrorNote error={flag.error} title="Whether drafting is on could not be read." />
        {refusal !== null && <p className="note note-info">{refusal}</p>}
        <p className="actions">
          <Link to="/agents">Back to the agents</Link>
          {mayCreateAgents(user) && <Link to="/agents/new">New agent by hand</Link>}
        </p>
      </>
    );
  }
  return <Builder user={user} />;
}

/** Where a new agent starts: in no team for members and above; else in the first team they write. */
function startingTeam(user: CurrentUser): number | null {
  return mayCreateWithoutTeam(user) ? null : (writableTeamIds(user)[0] ?? null);
}

function Builder({ user }: { user: CurrentUser }) {
  const [description, setDescription] = useState('');
  const [result, setResult] = useState<BuilderResult>();
  const [draft, setDraft] = useState<AgentDraft>();
  const drafting = useMutation({
    mutationFn: () => draftAgent(description),
    onSuccess: (answer) => {
      setResult(answer);
      setDraft(formOf(answer, startingTeam(user)));
    },
  });
  return (
    <>
      <PageHeader title={TITLE} description="Say in a few sentences what the agent is for; a draft of its whole configuration follows for you to review." />
      <Form
        className="card form builder-describe"
        onSubmit={(event) => {
          event.preventDefault();
          if (!drafting.isPending && description.trim() !== '') drafting.mutate();
        }}
      >
        <TextField
          label="What should the agent do?"
          description="Who it helps, what it answers from, its tone. E.g. “Answers our support team’s questions about returns from the product manuals, politely and briefly.”"
          value={description}
          onChange={setDescription}
          multiline
          rows={4}
          maxLength={4000}
          isRequired
          validate={(text) => (text.trim() === '' ? 'Describe the agent first.' : null)}
        />
        <div className="actions">
          <Button type="submit" variant="primary" isDisabled={drafting.isPending}>
            {drafting.isPending ? 'Drafting…' : draft === undefined ? 'Draft the agent' : 'Draft again'}
          </Button>
          {draft !== undefined && !drafting.isPending && <span className="muted">Drafting again replaces the draft below.</span>}
        </div>
        <ErrorNote error={drafting.error} title="No draft was made." />
      </Form>
      {result !== undefined && draft !== undefined && (
        <section className="builder-review" aria-labelledby="builder-review">
          <h2 id="builder-review">Review the draft</h2>
          <DraftOrigin result={result} />
          <DraftReview draft={draft} onChange={(change) => setDraft((before) => (before === undefined ? before : { ...before, ...change }))} />
        </section>
      )}
    </>
  );
}
