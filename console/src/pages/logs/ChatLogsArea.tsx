// Chat logs (/logs/*): the organization's threads, filtered, opened and exported.
import { PageHeader } from '../../ui/PageHeader';

export default function ChatLogsArea() {
  return <PageHeader title="Chat logs" />;
}
