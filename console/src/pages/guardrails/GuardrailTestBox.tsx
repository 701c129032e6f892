// The live test: a text applied to the saved guardrail at one of its stages (POST …/test), answered with
// what the guardrail found (marked in the text, named) and what it does (blocked, redacted, masked,
// warned or passed, with the text after it). The API tests saved guardrails only: a new one is saved
// first, and while the form has unsaved changes the box says it tests the saved version.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { ErrorNote } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { SelectField } from '../../ui/SelectField';
import { STAGE_NAMES, testGuardrail, type Guardrail, type GuardrailStage } from './guardrail-api';
import { LIMITS } from './guardrailDraft';
import { TestOutcome } from './TestOutcome';

interface GuardrailTestBoxProps {
  /** The saved guardrail; null while it is a new one. */
  guardrail: Guardrail | null;
  hasUnsavedChanges: boolean;
  /** Why testing is not possible (a feature flag off), if it is not. */
  disabledReason?: string;
}

export function GuardrailTestBox({ guardrail, hasUnsavedChanges, disabledReason }: GuardrailTestBoxProps) {
  return (
    <section className="card guardrail-test" aria-labelledby="guardrail-test-heading">
      <h2 id="guardrail-test-heading">Test</h2>
      {guardrail === null ? (
        <p className="muted">Save the guardrail to test it: the test applies the saved guardrail, as agents do.</p>
      ) : disabledReason !== undefined ? (
        <p className="muted">{disabledReason}</p>
      ) : (
        <TestForm key={guardrail.id} guardrail={guardrail} hasUnsavedChanges={hasUnsavedChanges} />
      )}
    </section>
  );
}

function TestForm({ guardrail, hasUnsavedChanges }: { guardrail: Guardrail; hasUnsavedChanges: boolean }) {
  const [text, setText] = useState('');
  const [chosenStage, setStage] = useState<GuardrailStage>(guardrail.stages[0] ?? 'input');
  const stage = guardrail.stages.includes(chosenStage) ? chosenStage : (guardrail.stages[0] ?? 'input');
  const test = useMutation({ mutationFn: (sent: { text: string; stage: GuardrailStage }) => testGuardrail(guardrail.id, sent.text, sent.stage) });
  const tested = test.variables;
  return (
    <Form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (text !== '') test.mutate({ text, stage });
      }}
    >
      {hasUnsavedChanges && <p className="note note-info">The test applies the saved guardrail; save to test your changes.</p>}
      <TextField label="Text to test" multiline rows={5} value={text} onChange={setText} maxLength={LIMITS.testCharacters} description="Nothing is stored." />
      <div className="guardrail-test-actions">
        {guardrail.stages.length > 1 && (
          <SelectField label="As" options={guardrail.stages.map((id) => ({ id, label: STAGE_NAMES[id] }))} value={stage} onChange={setStage} />
        )}
        <Button type="submit" variant="primary" isDisabled={text === '' || test.isPending}>
          {test.isPending ? 'Testing…' : 'Test'}
        </Button>
      </div>
      <ErrorNote error={test.error} title="The text could not be tested." />
      {test.data !== undefined && tested !== undefined && <TestOutcome result={test.data} tested={tested.text} />}
    </Form>
  );
}
