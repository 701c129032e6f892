// The settings of each kind of guardrail, with the bounds the server sets said beside them.
import { ChoiceGroup } from '../agents/ChoiceGroup';
import { TextField } from '../../ui/Fields';
import { OptionalNumberField } from '../../ui/OptionalNumberField';
import { SelectField } from '../../ui/SelectField';
import { LIMITS, type DraftProblems, type GuardrailDraft } from './guardrailDraft';
import { PII_ENTITIES } from './pii-entities';

interface KindSettingsProps {
  draft: GuardrailDraft;
  set: (change: Partial<GuardrailDraft>) => void;
  problems: DraftProblems;
  isReadOnly: boolean;
}

const ENTITY_ITEMS = PII_ENTITIES.map((entity, index) => ({ id: index, label: entity.label, detail: entity.id }));

const LANGUAGES = ['english', 'danish', 'dutch', 'finnish', 'french', 'german', 'italian', 'norwegian', 'portuguese', 'russian', 'spanish', 'swedish', 'simple'].map((id) => ({
  id,
  label: id === 'simple' ? 'Other (words as they are)' : id[0]!.toUpperCase() + id.slice(1),
}));

export function KindSettings({ draft, set, problems, isReadOnly }: KindSettingsProps) {
  switch (draft.type) {
    case 'pii':
      return (
        <ChoiceGroup
          label="Personal data to find"
          description="None ticked: every kind below."
          items={ENTITY_ITEMS}
          selected={draft.entities.map((id) => PII_ENTITIES.findIndex((entity) => entity.id === id)).filter((index) => index >= 0)}
          onChange={(indexes) => set({ entities: indexes.map((index) => PII_ENTITIES[index]!.id) })}
          emptyText=""
          isReadOnly={isReadOnly}
        />
      );
    case 'blocked_terms':
      return (
        <>
          <TextField
            label="Blocked terms"
            multiline
            rows={5}
            value={draft.terms}
            onChange={(terms) => set({ terms })}
            isReadOnly={isReadOnly}
            description={`One a line, at most ${LIMITS.termCharacters} characters each. Whole words, ignoring case, accents, look-alike letters and invisible characters.`}
            isInvalid={problems.terms !== undefined}
            errorMessage={problems.terms}
          />
          <TextField
            label="Blocked patterns"
            multiline
            rows={3}
            value={draft.patterns}
            onChange={(patterns) => set({ patterns })}
            isReadOnly={isReadOnly}
            description={`Regular expressions, one a line (at most ${LIMITS.patterns}, ${LIMITS.patternCharacters} characters each), matched ignoring case. Each must be bounded: {1,20} rather than + or *.`}
            isInvalid={problems.patterns !== undefined}
            errorMessage={problems.patterns}
          />
        </>
      );
    case 'length':
      return (
        <fieldset className="guardrail-fieldset">
          <legend>Limits (one or both)</legend>
          <div className="form-row">
            <OptionalNumberField
              label="Most characters"
              value={draft.maxCharacters}
              onChange={(maxCharacters) => set({ maxCharacters })}
              minValue={1}
              maxValue={LIMITS.lengthMax}
              isReadOnly={isReadOnly}
              errorMessage={problems.maxCharacters}
            />
            <OptionalNumberField
              label="Most tokens"
              value={draft.maxTokens}
              onChange={(maxTokens) => set({ maxTokens })}
              minValue={1}
              maxValue={LIMITS.lengthMax}
              description="Counted as OpenAI's cl100k_base counts them."
              isReadOnly={isReadOnly}
              errorMessage={problems.maxTokens}
            />
          </div>
          {problems.length !== undefined && <p className="field-problem">{problems.length}</p>}
        </fieldset>
      );
    case 'topic':
      return (
        <fieldset className="guardrail-fieldset">
          <legend>Topics (allowed, denied or both)</legend>
          <div className="form-row">
            <TextField
              label="Allowed topics"
              multiline
              rows={4}
              value={draft.allowed}
              onChange={(allowed) => set({ allowed })}
              isReadOnly={isReadOnly}
              description={`One a line (at most ${LIMITS.topics}). A text about none of them is off topic.`}
              isInvalid={problems.allowed !== undefined}
              errorMessage={problems.allowed}
            />
            <TextField
              label="Denied topics"
              multiline
              rows={4}
              value={draft.denied}
              onChange={(denied) => set({ denied })}
              isReadOnly={isReadOnly}
              description={`One a line (at most ${LIMITS.topics}). A text about one of them is found.`}
              isInvalid={problems.denied !== undefined}
              errorMessage={problems.denied}
            />
          </div>
          {problems.topics !== undefined && <p className="field-problem">{problems.topics}</p>}
          <div className="form-row">
            <OptionalNumberField
              label="Similarity threshold"
              value={draft.threshold}
              onChange={(threshold) => set({ threshold })}
              minValue={0}
              maxValue={1}
              fractionDigits={2}
              description="From 0 to 1; 0.5 when empty. Used when an embedding model is deployed."
              isReadOnly={isReadOnly}
              errorMessage={problems.threshold}
            />
            <SelectField
              label="Language of the keywords"
              options={LANGUAGES}
              value={draft.language}
              onChange={(language) => set({ language })}
              isDisabled={isReadOnly}
              description="How words are stemmed and which are skipped."
            />
          </div>
        </fieldset>
      );
  }
}
