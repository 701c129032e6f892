import { PageHeader } from '../../ui/PageHeader';

export default function ChatPage() {
  return <PageHeader title="ChatPage" />;
}
