// The guardrail's settings as a form, and the live test beside it. Saving a new guardrail goes on to
// its own address, where it can be tested; saving a change keeps the test's text where it is. The
// server's refusal (a name taken, a pattern that could backtrack, a flag off) is shown as it says it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ErrorNote, SuccessNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { DeleteGuardrailButton } from './DeleteGuardrailButton';
import { FlagNotice, useGuardrailFlags } from './FlagNotice';
import { guardrailKeys, guardrailsQuery, type Guardrail } from './guardrail-api';
import { bodyOf, draftOf, EMPTY_DRAFT, problemsOf, sameGuardrail, type GuardrailDraft } from './guardrailDraft';
import { GuardrailFields } from './GuardrailFields';
import { GuardrailTestBox } from './GuardrailTestBox';
import { serverProblemsOf } from './serverProblems';

const ONLY_ADMINS = 'Only owners and admins change guardrails; you can read and test them.';

export function GuardrailForm({ guardrail, mayManage }: { guardrail: Guardrail | null; mayManage: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const flags = useGuardrailFlags();
  const [draft, setDraft] = useState<GuardrailDraft>(() => (guardrail === null ? EMPTY_DRAFT : draftOf(guardrail)));
  // The stored version the draft started from: when the stored guardrail changes, the form follows it.
  const [basis, setBasis] = useState(guardrail?.modified_on);
  if (guardrail !== null && guardrail.modified_on !== basis) {
    setBasis(guardrail.modified_on);
    setDraft(draftOf(guardrail));
  }
  const [triedToSave, setTriedToSave] = useState(false);
  const problems = problemsOf(draft);
  const hasUnsavedChanges = guardrail === null || !sameGuardrail(draft, draftOf(guardrail));

  const save = useMutation({
    mutationFn: async (sent: GuardrailDraft) => {
      const body = bodyOf(sent);
      if (guardrail === null) return (await unwrap(api.POST('/api/v2/guardrails', { body }))).data;
      return (await unwrap(api.PUT('/api/v2/guardrails/{guardrail_id}', { params: { path: { guardrail_id: guardrail.id } }, body }))).data;
    },
    onSuccess: async (saved) => {
      queryClient.setQueryData(guardrailKeys.one(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: guardrailsQuery().queryKey });
      if (guardrail === null) await navigate(`/guardrails/${saved.id}`, { replace: true });
    },
  });

  const flagOff = flags.guardrail === false ? 'guardrail' : draft.type === 'pii' && flags.pii === false ? 'pii-redaction' : null;
  const savedFlagOff = flags.guardrail === false || (guardrail?.type === 'pii' && flags.pii === false);
  const isReadOnly = !mayManage;

  return (
    <div className="guardrail-workspace">
      <section className="card" aria-labelledby="guardrail-settings-heading">
        <h2 id="guardrail-settings-heading">Settings</h2>
        {flagOff !== null && <FlagNotice flag={flagOff} mayTurnOn={mayManage} />}
        {isReadOnly && <p className="note note-info">{ONLY_ADMINS}</p>}
        <Form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            setTriedToSave(true);
            if (Object.keys(problems).length === 0 && !save.isPending) save.mutate(draft);
          }}
        >
          <GuardrailFields
            draft={draft}
            onChange={(next) => {
              setDraft(next);
              save.reset();
            }}
            problems={{ ...serverProblemsOf(save.error), ...(triedToSave ? problems : {}) }}
            isReadOnly={isReadOnly}
          />
          <ErrorNote error={save.error} title="The guardrail could not be saved." />
          {save.isSuccess && !hasUnsavedChanges && guardrail !== null && <SuccessNote>Saved.</SuccessNote>}
          {!isReadOnly && (
            <div className="actions">
              <Button type="submit" variant="primary" isDisabled={save.isPending || (guardrail !== null && !hasUnsavedChanges)}>
                {save.isPending ? 'Saving…' : guardrail === null ? 'Create guardrail' : 'Save changes'}
              </Button>
              {guardrail !== null && hasUnsavedChanges && (
                <Button onPress={() => setDraft(draftOf(guardrail))} isDisabled={save.isPending}>
                  Discard changes
                </Button>
              )}
            </div>
          )}
        </Form>
        {guardrail !== null && mayManage && <DeleteGuardrailButton guardrail={guardrail} />}
      </section>
      <GuardrailTestBox
        guardrail={guardrail}
        hasUnsavedChanges={hasUnsavedChanges}
        disabledReason={savedFlagOff ? 'Testing needs the feature turned on (see the note beside).' : undefined}
      />
    </div>
  );
}
