// The organization's guardrails (/guardrails): each with its kind, stages and action; a new one (owners
// and admins); a note while the feature flags turn them off.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { atLeast } from '../../session/permissions';
import { useUser } from '../../session/session';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { PageHeader } from '../../ui/PageHeader';
import { DeleteGuardrailButton } from './DeleteGuardrailButton';
import { FlagNotice, useGuardrailFlags } from './FlagNotice';
import { ACTION_NAMES, guardrailsQuery, STAGE_NAMES, TYPE_NAMES, type Guardrail } from './guardrail-api';
import { findingName } from './pii-entities';
import { DataTable } from '../../ui/DataTable';

const ONLY_ADMINS = 'Only owners and admins create guardrails.';

export default function GuardrailListPage() {
  const user = useUser();
  const mayManage = atLeast(user.role, 'admin');
  const guardrails = useQuery(guardrailsQuery());
  const flags = useGuardrailFlags();
  return (
    <>
      <PageHeader title="Guardrails" description="Checks on what goes into and comes out of an agent: personal data, blocked terms, length, topics.">
        {mayManage ? (
          <Link to="/guardrails/new" className="button button-primary">
            New guardrail
          </Link>
        ) : (
          <div className="guardrail-new-disabled">
            <Button variant="primary" isDisabled aria-describedby="new-guardrail-reason">
              New guardrail
            </Button>
            <p id="new-guardrail-reason" className="muted guardrail-small">
              {ONLY_ADMINS}
            </p>
          </div>
        )}
      </PageHeader>
      {flags.guardrail === false && <FlagNotice flag="guardrail" mayTurnOn={mayManage} />}
      {flags.guardrail === true && flags.pii === false && <FlagNotice flag="pii-redaction" mayTurnOn={mayManage} />}
      <ErrorNote error={guardrails.error} title="The guardrails could not be loaded." />
      {guardrails.isPending && <Loading label="Loading the guardrails…" />}
      {guardrails.data !== undefined &&
        (guardrails.data.length === 0 ? (
          <Empty>{mayManage ? 'No guardrails yet. Create one, then attach it to agents.' : 'No guardrails yet.'}</Empty>
        ) : (
          <GuardrailTable guardrails={guardrails.data} mayManage={mayManage} />
        ))}
    </>
  );
}

function settingsSummary(guardrail: Guardrail): string {
  const config = guardrail.config;
  const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  switch (guardrail.type) {
    case 'pii':
      return Array.isArray(config.entities) ? config.entities.map((entity) => findingName(String(entity))).join(', ') : 'Every kind of personal data';
    case 'blocked_terms':
      return `${count(config.terms)} terms, ${count(config.patterns)} patterns`;
    case 'length':
      return [config.max_characters !== undefined && `${String(config.max_characters)} characters`, config.max_tokens !== undefined && `${String(config.max_tokens)} tokens`]
        .filter(Boolean)
        .join(', ');
    case 'topic':
      return `${count(config.allowed)} allowed, ${count(config.denied)} denied`;
  }
}

function GuardrailTable({ guardrails, mayManage }: { guardrails: Guardrail[]; mayManage: boolean }) {
  return (
    <DataTable columns={['Name', 'Kind', 'Stages', 'Action']} actions={mayManage} className="guardrail-table">
      {guardrails.map((guardrail) => (
        <tr key={guardrail.id}>
          <th scope="row" data-label="Name">
            <Link to={`/guardrails/${guardrail.id}`}>{guardrail.name}</Link>
          </th>
          <td data-label="Kind">
            {TYPE_NAMES[guardrail.type]}
            <span className="muted guardrail-detail">{settingsSummary(guardrail)}</span>
          </td>
          <td data-label="Stages">{guardrail.stages.map((stage) => STAGE_NAMES[stage].split(':')[0]).join(', ')}</td>
          <td data-label="Action">{ACTION_NAMES[guardrail.action]}</td>
          {mayManage && (
            <td data-label="Actions">
              <DeleteGuardrailButton guardrail={guardrail} compact />
            </td>
          )}
        </tr>
      ))}
    </DataTable>
  );
}
