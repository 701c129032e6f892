// The feature flags (GET /api/v2/feature-flags): a switch each, with what it gates as the server
// describes it; an operation behind a flag that is off answers 403. Owners and admins switch them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Switch } from 'react-aria-components';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { featureFlagsQuery, organizationKeys, type FeatureFlag } from './organization-api';

export function FeatureFlagsSection({ mayChange }: { mayChange: boolean }) {
  const flags = useQuery(featureFlagsQuery());
  return (
    <section aria-labelledby="flags-heading">
      <h2 id="flags-heading">Features</h2>
      <p className="muted">Each switch turns a feature on or off for the whole organization. While one is off, what it gates is refused.</p>
      <ErrorNote error={flags.error} title="The features could not be loaded." />
      {flags.isPending && <Loading label="Loading the features…" />}
      {flags.data !== undefined && (
        <ul className="flag-list">
          {flags.data.map((flag) => (
            <FlagSwitch key={flag.flag} flag={flag} mayChange={mayChange} />
          ))}
        </ul>
      )}
    </section>
  );
}

function FlagSwitch({ flag, mayChange }: { flag: FeatureFlag; mayChange: boolean }) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (enabled: boolean) => unwrap(api.PUT('/api/v2/feature-flags/{flag}', { params: { path: { flag: flag.flag } }, body: { enabled } })),
    onSuccess: ({ data }) => {
      queryClient.setQueryData<FeatureFlag[]>(organizationKeys.flags, (list) => list?.map((entry) => (entry.flag === data.flag ? data : entry)));
    },
  });
  const enabled = change.isPending && change.variables !== undefined ? change.variables : flag.enabled;
  const gatesId = `flag-${flag.flag}-gates`;
  return (
    <li>
      <Switch isSelected={enabled} onChange={(value) => change.mutate(value)} isDisabled={!mayChange || change.isPending} aria-describedby={gatesId}>
        <span className="track" aria-hidden="true" />
        {flag.summary}
        <span className="flag-state">
          {' '}
          · {enabled ? 'on' : 'off'}
          {flag.modified_by === null ? ' (default)' : `, changed by ${flag.modified_by}`}
        </span>
      </Switch>
      <p id={gatesId} className="flag-gates">
        Gates: {flag.gates}.
      </p>
      <ErrorNote error={change.error} title={`${flag.summary} was not switched:`} />
    </li>
  );
}
