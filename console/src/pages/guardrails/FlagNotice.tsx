// Guardrails are gated by two feature flags: `guardrail` (all of them) and `pii-redaction` (those of the
// PII kind). While one is off the server refuses to create, change or test what it gates (403); the
// page says so, and how to turn it on: owners and admins here at once, anyone else by asking them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { guardrailFlagQuery, piiFlagQuery, turnFlagOn } from './guardrail-api';

type GatingFlag = 'guardrail' | 'pii-redaction';

const WHAT_IS_OFF: Record<GatingFlag, string> = {
  guardrail: 'Guardrails are turned off for your organization (feature flag “guardrail”): they cannot be created, changed or tested, and agents answer without them.',
  'pii-redaction':
    'PII redaction is turned off for your organization (feature flag “pii-redaction”): PII guardrails cannot be created, changed or tested, and agents answer without them.',
};

/** Whether each flag is on; undefined while not known (the page does not wait for it). */
export function useGuardrailFlags() {
  const guardrail = useQuery(guardrailFlagQuery());
  const pii = useQuery(piiFlagQuery());
  return { guardrail: guardrail.data?.enabled, pii: pii.data?.enabled };
}

export function FlagNotice({ flag, mayTurnOn }: { flag: GatingFlag; mayTurnOn: boolean }) {
  const queryClient = useQueryClient();
  const turnOn = useMutation({
    mutationFn: () => turnFlagOn(flag),
    onSuccess: (data) => queryClient.setQueryData(flag === 'guardrail' ? guardrailFlagQuery().queryKey : piiFlagQuery().queryKey, data),
  });
  return (
    <div className="note note-info flag-notice">
      <p>{WHAT_IS_OFF[flag]}</p>
      {mayTurnOn ? (
        <Button onPress={() => turnOn.mutate()} isDisabled={turnOn.isPending}>
          {flag === 'guardrail' ? 'Turn guardrails on' : 'Turn PII redaction on'}
        </Button>
      ) : (
        <p>An owner or admin of your organization can turn it on (PUT /api/v2/feature-flags/{flag}).</p>
      )}
      <ErrorNote error={turnOn.error} title="The feature could not be turned on." />
    </div>
  );
}
