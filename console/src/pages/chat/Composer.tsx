// The question's text box, with Send (Enter; Shift+Enter for a new line) and, while an answer is
// being written, Stop. The text stays in the box until the server has accepted the question, so a
// refused ask (an error, a rate limit, a session that ended) loses nothing typed.
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { Button, TextField } from '../../ui/Fields';

interface ComposerProps {
  /** Sends the question; resolves true once the server accepted it. */
  onSend: (query: string) => Promise<boolean>;
  onStop: () => void;
  /** An answer is being written in this conversation. */
  busy: boolean;
  /** Why no question may be asked here, when none may. */
  disabledReason?: string;
}

const MAX_QUESTION = 32_000;
const KEYS_HINT = 'Enter sends; Shift+Enter starts a new line.';

export function Composer({ onSend, onStop, busy, disabledReason }: ComposerProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const canSend = !busy && !sending && disabledReason === undefined && text.trim() !== '';

  async function send() {
    if (!canSend) return;
    setSending(true);
    try {
      if (await onSend(text)) setText('');
    } finally {
      setSending(false);
    }
  }

  return (
    <Form
      className="composer"
      aria-label="Ask the agent"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <TextField
        className={disabledReason === undefined ? 'composer-field' : 'composer-field is-disabled'}
        label="Your question"
        multiline
        rows={2}
        value={text}
        onChange={setText}
        maxLength={MAX_QUESTION}
        isDisabled={disabledReason !== undefined}
        description={disabledReason ?? KEYS_HINT}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void send();
          } else {
            event.continuePropagation();
          }
        }}
      />
      <div className="composer-actions">
        {busy ? (
          <Button variant="danger" onPress={onStop}>
            Stop
          </Button>
        ) : (
          <Button type="submit" variant="primary" isDisabled={!canSend}>
            {sending ? 'Sending…' : 'Send'}
          </Button>
        )}
      </div>
    </Form>
  );
}
