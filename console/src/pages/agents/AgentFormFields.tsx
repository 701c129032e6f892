// The agent's configuration as form sections: about it, its instructions, its model, what it draws
// on, its conversation starters, where it belongs. Read-only for those who may not change it.
import type { ReactNode } from 'react';
import { TextField } from '../../ui/Fields';
import type { AgentDraft, FieldErrors } from './agentDraft';
import { ModelField } from './ModelField';
import { PlaceFields } from './PlaceFields';
import { ReachFields } from './ReachFields';
import { StartersEditor } from './StartersEditor';

interface AgentFormFieldsProps {
  draft: AgentDraft;
  onChange: (change: Partial<AgentDraft>) => void;
  errors: FieldErrors['byField'];
  isReadOnly: boolean;
  /** The team the agent is in now; undefined for a new agent. */
  savedTeamId?: number | null;
  /** The image panel, beside the name and description. */
  image: ReactNode;
}

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section className="card agent-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function AgentFormFields({ draft, onChange, errors, isReadOnly, savedTeamId, image }: AgentFormFieldsProps) {
  return (
    <>
      <Section title="About" id="agent-about">
        <div className="agent-about">
          <div className="form agent-about-fields">
            <TextField
              label="Name"
              name="name"
              value={draft.name}
              onChange={(name) => onChange({ name })}
              isRequired
              validate={(name) => (name.trim() === '' ? 'Give the agent a name.' : null)}
              maxLength={200}
              isReadOnly={isReadOnly}
            />
            <TextField
              label="Description"
              name="description"
              description="What the agent is for, as people choosing it read it."
              value={draft.description}
              onChange={(description) => onChange({ description })}
              multiline
              rows={2}
              maxLength={2000}
              isReadOnly={isReadOnly}
            />
          </div>
          {image}
        </div>
      </Section>
      <Section title="Instructions" id="agent-instructions">
        <TextField
          label="Instructions"
          name="instructions"
          description="What the agent is told before every conversation: its role, its tone, what to answer and what not."
          value={draft.instructions}
          onChange={(instructions) => onChange({ instructions })}
          multiline
          rows={14}
          maxLength={100_000}
          isReadOnly={isReadOnly}
          className="agent-instructions"
        />
      </Section>
      <Section title="Model and knowledge" id="agent-reach">
        <div className="form">
          <ModelField value={draft.llmConfigurationId} onChange={(llmConfigurationId) => onChange({ llmConfigurationId })} errorMessage={errors.llm_configuration_id} isReadOnly={isReadOnly} />
          <ReachFields draft={draft} onChange={onChange} errors={errors} isReadOnly={isReadOnly} />
        </div>
      </Section>
      <Section title="Conversation starters" id="agent-starters">
        <p className="muted section-intro">Questions offered to someone who opens a chat with the agent.</p>
        <StartersEditor starters={draft.starters} onChange={(starters) => onChange({ starters })} errorMessage={errors.conversation_starters} isReadOnly={isReadOnly} />
      </Section>
      <Section title="Team and project" id="agent-place">
        <PlaceFields draft={draft} savedTeamId={savedTeamId} onChange={onChange} errors={errors} isReadOnly={isReadOnly} />
      </Section>
    </>
  );
}
