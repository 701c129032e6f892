// How far a regular expression can read past where a match starts: the longest match it can make,
// lookaheads included, in UTF-16 units. A stream holds back that many characters for the pattern, so
// a pattern must have a bound (`\d{1,20}` rather than `\d+`). Read from the pattern's syntax tree
// (@eslint-community/regexpp, the parser ESLint uses).
import { RegExpParser, type AST } from '@eslint-community/regexpp';

const parser = new RegExpParser({ ecmaVersion: 2023 });

type Measured = AST.Pattern | AST.Alternative | AST.Element | AST.CharacterClassElement;

/** Whether every character a class matches is in the Basic Multilingual Plane (one UTF-16 unit). */
function classIsBmp(node: AST.CharacterClass): boolean {
  if (node.negate) return false;
  return node.elements.every((element) => {
    if (element.type === 'Character') return element.value <= 0xffff;
    if (element.type === 'CharacterClassRange') return element.max.value <= 0xffff;
    return element.type === 'CharacterSet' && element.kind !== 'property';
  });
}

function longestOf(alternatives: AST.Alternative[]): number {
  return Math.max(0, ...alternatives.map((alternative) => reach(alternative)));
}

function reach(node: Measured): number {
  switch (node.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      return longestOf(node.alternatives);
    case 'Alternative':
      return node.elements.reduce((sum, element) => sum + reach(element), 0);
    case 'Quantifier': {
      const each = reach(node.element);
      if (each === 0) return 0;
      return node.max === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : node.max * each;
    }
    case 'Character':
      return node.value > 0xffff ? 2 : 1;
    case 'CharacterClass':
      return classIsBmp(node) ? 1 : 2;
    case 'CharacterSet':
      // \d, \s and \w are within the BMP; `.` and \p{…} may match a surrogate pair.
      return node.kind === 'any' || node.kind === 'property' ? 2 : 1;
    case 'Assertion':
      // A lookahead reads ahead of where it stands; a lookbehind reads text already seen.
      return node.kind === 'lookahead' ? longestOf(node.alternatives) : 0;
    case 'Backreference': {
      const groups = Array.isArray(node.resolved) ? node.resolved : [node.resolved];
      return Math.max(0, ...groups.map((group) => reach(group)));
    }
    default:
      return 2;
  }
}

/** The longest lookbehind among the node and what it contains. */
function lookbehind(node: Measured): number {
  switch (node.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      return Math.max(0, ...node.alternatives.map(lookbehind));
    case 'Alternative':
      return Math.max(0, ...node.elements.map(lookbehind));
    case 'Quantifier':
      return lookbehind(node.element);
    case 'Assertion':
      if (node.kind === 'lookbehind') return Math.max(longestOf(node.alternatives), ...node.alternatives.map(lookbehind));
      return node.kind === 'lookahead' ? Math.max(0, ...node.alternatives.map(lookbehind)) : 0;
    default:
      return 0;
  }
}

function parse(source: string): AST.Pattern {
  return parser.parsePattern(source, 0, source.length, { unicode: true });
}

/**
 * The longest stretch of text a match of `source` (with the `u` flag) can read from its start,
 * Infinity when unbounded. Throws SyntaxError for a pattern that is not a regular expression.
 */
export function regexReach(source: string): number {
  return reach(parse(source));
}

/**
 * How far before where a match starts the pattern may read: its longest lookbehind, plus the one
 * character a word boundary looks at. Infinity for an unbounded lookbehind.
 */
export function regexLookbehind(source: string): number {
  return lookbehind(parse(source)) + 1;
}
