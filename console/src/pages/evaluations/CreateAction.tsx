// The page's "New …" action for those who may create (members and above); for a viewer the same
// button disabled, with the reason beside it.
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useUser } from '../../session/session';
import { Button } from '../../ui/Fields';
import { mayCreate, VIEWER_CANNOT_CREATE } from './format';

/** `children`: the dialog and its trigger; `label`: the trigger's text, shown disabled to a viewer. */
export function CreateAction({ label, children }: { label: string; children: ReactNode }) {
  const reasonId = useId();
  if (mayCreate(useUser())) return <>{children}</>;
  return (
    <div className="disabled-with-reason">
      <Button variant="primary" isDisabled aria-describedby={reasonId}>
        {label}
      </Button>
      <p id={reasonId} className="muted text-small">
        {VIEWER_CANNOT_CREATE}
      </p>
    </div>
  );
}
