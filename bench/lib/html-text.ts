// The readable text of an HTML page, for checking that a phrase is on it: text nodes outside
// scripts, styles and the head, entities decoded, whitespace collapsed to single spaces.
import { Parser } from 'htmlparser2';

const UNREAD = new Set(['head', 'script', 'style', 'template']);
/** Elements inside a line of text: `<code><span>json</span>.load</code>` reads `json.load`. */
const INLINE = new Set('a abbr b bdi bdo cite code data dfn em font i kbd mark q s samp small span strong sub sup time tt u var wbr'.split(' '));

export function htmlText(html: string): string {
  const pieces: string[] = [];
  let unreadDepth = 0;
  const parser = new Parser(
    {
      onopentag: (name) => {
        if (unreadDepth > 0 || UNREAD.has(name)) unreadDepth++;
        // Block boundaries become spaces, so that words of adjacent cells or lines never join.
        else if (!INLINE.has(name)) pieces.push(' ');
      },
      ontext: (text) => {
        if (unreadDepth === 0) pieces.push(text);
      },
      onclosetag: (name) => {
        if (unreadDepth > 0) unreadDepth--;
        else if (!INLINE.has(name)) pieces.push(' ');
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return pieces.join('').replace(/\s+/g, ' ').trim();
}
