// "Test": one real, small call to the model (POST …/test), its outcome said plainly beside the button:
// how long it took, or why it failed as the provider said it (the key is never in the message).
import { useMutation } from '@tanstack/react-query';
import { ErrorNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { testConfiguration, type LlmConfiguration, type LlmTestResult } from './model-api';

const ERROR_CLASS_NAMES: Record<NonNullable<LlmTestResult['error_class']>, string> = {
  auth: 'The key was refused',
  not_found: 'Model or address not found',
  rate_limited: 'Rate limited',
  unreachable: 'Unreachable',
  timeout: 'No answer in time',
  bad_response: 'An answer that makes no sense',
};

export function TestConfigurationButton({ organizationId, configuration }: { organizationId: number; configuration: LlmConfiguration }) {
  const test = useMutation({ mutationFn: () => testConfiguration(organizationId, configuration.id) });
  return (
    <div className="configuration-test">
      <Button className="button-compact" onPress={() => test.mutate()} isDisabled={test.isPending} aria-label={`Test ${configuration.name}`}>
        {test.isPending ? 'Testing…' : 'Test'}
      </Button>
      <div role="status" aria-live="polite" className="configuration-test-result">
        {test.data !== undefined && <TestResult result={test.data} />}
      </div>
      <ErrorNote error={test.error} title="The test could not be made." />
    </div>
  );
}

function TestResult({ result }: { result: LlmTestResult }) {
  if (result.ok) {
    return (
      <p className="test-ok">
        <span className="badge badge-success">Works</span> {result.model} answered in {result.latency_ms} ms.
      </p>
    );
  }
  return (
    <p className="test-failed">
      <span className="badge badge-danger">Failed</span> {result.error_class === null ? '' : `${ERROR_CLASS_NAMES[result.error_class]}: `}
      {result.message}
    </p>
  );
}
