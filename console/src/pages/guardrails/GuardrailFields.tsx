// The fields every guardrail has (name, kind, stages, action) and, below them, the settings of its
// kind. Problems are shown once the person has tried to save (`problems` is empty before).
import { ChoiceGroup } from '../agents/ChoiceGroup';
import { TextField } from '../../ui/Fields';
import { SelectField } from '../../ui/SelectField';
import { ACTION_DETAILS, ACTION_NAMES, GUARDRAIL_ACTIONS, GUARDRAIL_STAGES, GUARDRAIL_TYPES, STAGE_NAMES, TYPE_DETAILS, TYPE_NAMES } from './guardrail-api';
import { LIMITS, type DraftProblems, type GuardrailDraft } from './guardrailDraft';
import { KindSettings } from './KindSettings';

interface GuardrailFieldsProps {
  draft: GuardrailDraft;
  onChange: (draft: GuardrailDraft) => void;
  problems: DraftProblems;
  isReadOnly: boolean;
}

const TYPE_OPTIONS = GUARDRAIL_TYPES.map((type) => ({ id: type, label: TYPE_NAMES[type], detail: TYPE_DETAILS[type] }));
const ACTION_OPTIONS = GUARDRAIL_ACTIONS.map((action) => ({ id: action, label: ACTION_NAMES[action], detail: ACTION_DETAILS[action] }));
const STAGE_ITEMS = GUARDRAIL_STAGES.map((stage, index) => ({ id: index, label: STAGE_NAMES[stage] }));

export function GuardrailFields({ draft, onChange, problems, isReadOnly }: GuardrailFieldsProps) {
  const set = (change: Partial<GuardrailDraft>) => onChange({ ...draft, ...change });
  return (
    <>
      <TextField
        label="Name"
        value={draft.name}
        onChange={(name) => set({ name })}
        isRequired
        validationBehavior="aria"
        isReadOnly={isReadOnly}
        maxLength={LIMITS.name}
        description="Unique among your organization's guardrails."
        isInvalid={problems.name !== undefined}
        errorMessage={problems.name}
      />
      <div className="form-row">
        <SelectField label="Kind" options={TYPE_OPTIONS} value={draft.type} onChange={(type) => set({ type })} isDisabled={isReadOnly} description={TYPE_DETAILS[draft.type]} />
        <SelectField
          label="Action"
          options={ACTION_OPTIONS}
          value={draft.action}
          onChange={(action) => set({ action })}
          isDisabled={isReadOnly}
          description={`What is done when something is found: ${ACTION_DETAILS[draft.action]}`}
        />
      </div>
      <ChoiceGroup
        label="Stages"
        description="Where in an answer the guardrail looks."
        items={STAGE_ITEMS}
        selected={draft.stages.map((stage) => GUARDRAIL_STAGES.indexOf(stage))}
        onChange={(indexes) => set({ stages: indexes.map((index) => GUARDRAIL_STAGES[index]!) })}
        emptyText=""
        isReadOnly={isReadOnly}
        errorMessage={problems.stages}
      />
      <KindSettings draft={draft} set={set} problems={problems} isReadOnly={isReadOnly} />
    </>
  );
}
