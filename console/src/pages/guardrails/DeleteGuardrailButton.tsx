// Deleting a guardrail, after a question that names it; agents that name it answer without it from then
// on. Then to the list of guardrails.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { DeleteButton } from '../../ui/DeleteButton';
import { guardrailKeys, guardrailsQuery, type Guardrail } from './guardrail-api';

export function DeleteGuardrailButton({ guardrail, compact = false }: { guardrail: Guardrail; compact?: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v2/guardrails/{guardrail_id}', { params: { path: { guardrail_id: guardrail.id } } })),
    onSuccess: async () => {
      await navigate('/guardrails');
      queryClient.removeQueries({ queryKey: guardrailKeys.one(guardrail.id) });
      await queryClient.invalidateQueries({ queryKey: guardrailsQuery().queryKey });
    },
  });
  return (
    <DeleteButton
      label={compact ? 'Delete' : 'Delete guardrail'}
      accessibleName={compact ? `Delete ${guardrail.name}` : undefined}
      compact={compact}
      title={`Delete ${guardrail.name}?`}
      confirmLabel="Delete guardrail"
      isPending={remove.isPending}
      error={remove.error}
      errorTitle="The guardrail could not be deleted."
      onDelete={() => remove.mutate()}
      // Set apart below the editor's form; in a row of the list it stays level with the row's cells.
      className={compact ? undefined : 'guardrail-delete'}
    >
      <p>Agents that use it answer without it from then on. This cannot be undone.</p>
    </DeleteButton>
  );
}
