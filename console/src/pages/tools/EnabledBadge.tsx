export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <span className={enabled ? 'badge badge-success' : 'badge'}>{enabled ? 'Enabled' : 'Disabled'}</span>;
}
