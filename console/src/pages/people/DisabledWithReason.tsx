// A button the signed-in role may not use, shown disabled with the reason beside it.
import { useId } from 'react';
import { Button } from '../../ui/Fields';

export function DisabledWithReason({ label, reason, variant = 'primary' }: { label: string; reason: string; variant?: 'primary' | 'secondary' | 'danger' }) {
  const id = useId();
  return (
    <div className="disabled-with-reason">
      <Button variant={variant} isDisabled aria-describedby={id}>
        {label}
      </Button>
      <p id={id} className="muted text-small">
        {reason}
      </p>
    </div>
  );
}
