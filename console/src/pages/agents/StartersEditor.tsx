// The conversation starters: a short list of questions offered to someone opening a chat with the
// agent. Each can be changed, moved up or down, and removed; blank ones are left out when saving.
import { Button, TextField } from '../../ui/Fields';
import { newStarter, type Starter } from './agentDraft';

/** The API's limit (conversation_starters: up to 20). */
const MAX_STARTERS = 20;

interface StartersEditorProps {
  starters: Starter[];
  onChange: (starters: Starter[]) => void;
  errorMessage?: string;
  isReadOnly?: boolean;
}

function moved(starters: Starter[], from: number, to: number): Starter[] {
  const next = [...starters];
  const [starter] = next.splice(from, 1);
  if (starter !== undefined) next.splice(to, 0, starter);
  return next;
}

export function StartersEditor({ starters, onChange, errorMessage, isReadOnly = false }: StartersEditorProps) {
  if (isReadOnly) {
    return starters.length === 0 ? (
      <p className="muted">No conversation starters.</p>
    ) : (
      <ol className="starter-read-list">
        {starters.map((starter) => (
          <li key={starter.key}>{starter.text}</li>
        ))}
      </ol>
    );
  }
  const change = (key: string, text: string) => onChange(starters.map((starter) => (starter.key === key ? { ...starter, text } : starter)));
  return (
    <div className="starters">
      {starters.length === 0 && <p className="muted">No conversation starters yet.</p>}
      <ol className="starter-list">
        {starters.map((starter, index) => {
          const number = index + 1;
          return (
            <li key={starter.key}>
              <div className="starter-row">
                <TextField
                  label={`Starter ${number}`}
                  value={starter.text}
                  onChange={(text) => change(starter.key, text)}
                  maxLength={500}
                  // A starter just added takes the focus, ready for typing.
                  autoFocus={starter.text === '' && index === starters.length - 1}
                  className="starter-text"
                />
                <div className="starter-actions">
                  <Button variant="quiet" className="icon-button" aria-label={`Move starter ${number} up`} isDisabled={index === 0} onPress={() => onChange(moved(starters, index, index - 1))}>
                    ↑
                  </Button>
                  <Button
                    variant="quiet"
                    className="icon-button"
                    aria-label={`Move starter ${number} down`}
                    isDisabled={index === starters.length - 1}
                    onPress={() => onChange(moved(starters, index, index + 1))}
                  >
                    ↓
                  </Button>
                  <Button variant="quiet" className="icon-button" aria-label={`Remove starter ${number}`} onPress={() => onChange(starters.filter((other) => other.key !== starter.key))}>
                    Remove
                  </Button>
                </div>
              </div>
            </li>
          );
        })}
      </ol>
      {errorMessage !== undefined && (
        <p className="react-aria-FieldError" role="alert">
          {errorMessage}
        </p>
      )}
      <Button onPress={() => onChange([...starters, newStarter()])} isDisabled={starters.length >= MAX_STARTERS}>
        Add a starter
      </Button>
      {starters.length >= MAX_STARTERS && <p className="muted">{MAX_STARTERS} starters at most.</p>}
    </div>
  );
}
