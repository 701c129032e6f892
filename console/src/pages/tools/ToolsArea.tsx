// Tools (/tools/*): the organization's tools by kind, made, imported, tested, switched on and off.
import { PageHeader } from '../../ui/PageHeader';

export default function ToolsArea() {
  return <PageHeader title="Tools" />;
}
