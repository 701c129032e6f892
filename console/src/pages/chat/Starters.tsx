// The agent's conversation starters, offered on an empty thread: pressing one asks it.
import { Button } from '../../ui/Fields';

export function Starters({ starters, onAsk, isDisabled }: { starters: readonly string[]; onAsk: (query: string) => void; isDisabled: boolean }) {
  if (starters.length === 0) return null;
  return (
    <section className="chat-starters" aria-labelledby="starters-title">
      <h3 id="starters-title">Try asking</h3>
      <ul className="chat-starter-list">
        {starters.map((starter) => (
          <li key={starter}>
            <Button className="chat-starter" isDisabled={isDisabled} onPress={() => onAsk(starter)}>
              {starter}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
