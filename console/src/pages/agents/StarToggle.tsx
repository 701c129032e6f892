// The star beside an agent: a toggle button named for the agent ("Star Support bot"), pressed while
// the agent is on the caller's starred list.
import { ToggleButton } from 'react-aria-components';

interface StarToggleProps {
  agentName: string;
  isStarred: boolean;
  onChange: (starred: boolean) => void;
  isDisabled?: boolean;
}

export function StarToggle({ agentName, isStarred, onChange, isDisabled }: StarToggleProps) {
  return (
    <ToggleButton className="button button-quiet icon-button agent-star" isSelected={isStarred} onChange={onChange} isDisabled={isDisabled} aria-label={`Star ${agentName}`}>
      <span aria-hidden="true">{isStarred ? '★' : '☆'}</span>
    </ToggleButton>
  );
}
