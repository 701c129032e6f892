import { PageHeader } from '../../ui/PageHeader';

export default function SetPasswordPage() {
  return <PageHeader title="SetPasswordPage" />;
}
