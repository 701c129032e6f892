// Identifiers with a fixed shape, each confirmed by its validator: e-mail addresses, web addresses,
// payment cards (Luhn, issuer ranges), IBANs (mod-97), US social security numbers, IP addresses.
import { candidate, saidBefore, Strength, type Candidate } from './candidate.js';
import { cardNetwork, digitsOf, ibanValid, ipv4Valid, ipv6Valid, luhnValid, ssnValid } from './validators.js';

/** The local part before an "@" (at most 64 characters, RFC 5321) and the domain after it. */
const EMAIL_LOCAL_PART = /(?<![\p{L}\p{N}._%+'-])[\p{L}\p{N}_%+'-]+(?:\.[\p{L}\p{N}_%+'-]+)*$/u;
const EMAIL_DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,24}(?![\p{L}\p{N}-])/u;

/** Each "@" is looked at, rather than every letter of the text being a possible start of an address. */
export function findEmails(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    const local = EMAIL_LOCAL_PART.exec(text.slice(Math.max(0, at - 65), at));
    const domain = local === null ? null : EMAIL_DOMAIN.exec(text.slice(at + 1, at + 256));
    if (local === null || domain === null || local[0].length > 64) continue;
    found.push(candidate('EMAIL_ADDRESS', at - local[0].length, at + 1 + domain[0].length, 'email', Strength.checked));
  }
  return found;
}

/** Characters that end a sentence rather than a web address when they close it. */
const URL_TRAILING = /[.,;:!?'"’”)\]}>]+$/u;
/** Two expressions rather than one with two branches: each starts with letters the engine looks for fast. */
const URL_WITH_SCHEME = /\b(?:https?|ftp):\/\/[^\s<>"'`{}|\\^\[\]]+/gi;
const URL_FROM_WWW = /(?<![\p{L}\p{N}@./-])www\.[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+(?:[/?#][^\s<>"'`{}|\\^\[\]]*)?/giu;
/**
 * A bare host name is taken only with a top-level domain people write without a scheme: generic ones
 * and the country codes most seen; "end.It" between two sentences or "index.js" are not domains.
 */
const TOP_LEVEL_DOMAIN =
  /\.(?:com|org|net|edu|gov|mil|int|info|biz|io|ai|app|dev|co|me|tv|us|uk|de|fr|nl|be|se|dk|no|fi|is|ch|at|pl|cz|sk|hu|it|es|pt|ie|gr|cy|ee|lv|lt|si|hr|ro|bg|ua|ru|tr|il|in|cn|jp|kr|tw|hk|sg|au|nz|ca|mx|br|ar|cl|uy|za|eu)(?![\p{L}\p{N}@-]|\.[\p{L}\p{N}])/gu;
/** The labels before a top-level domain, found from it backwards. */
const HOST_LABELS = /(?<![\p{L}\p{N}@._/-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62}[\p{L}\p{N}])?\.){0,3}[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62}[\p{L}\p{N}])?$/u;

/**
 * Where HOST_LABELS need be read from, before a top-level domain at `end`: at most 200 characters back,
 * and no further than the character before the run of ASCII letters, digits, dots and hyphens that
 * ends there (a host name cannot cross it). The expression, anchored at the end, is tried from every
 * position of what it is given; a run with other characters in it is given the 200.
 */
function hostRunStart(text: string, end: number): number {
  const limit = Math.max(0, end - 200);
  let at = end;
  while (at > limit) {
    const code = text.charCodeAt(at - 1);
    if (code >= 0x80) return limit;
    const hostCharacter = (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) || code === 0x2e || code === 0x2d;
    if (!hostCharacter) return Math.max(limit, at - 1);
    at--;
  }
  return limit;
}

export function findDomains(text: string): Candidate[] {
  const found: Candidate[] = [];
  const urls = [...(text.includes('://') ? text.matchAll(URL_WITH_SCHEME) : []), ...(/www\./i.test(text) ? text.matchAll(URL_FROM_WWW) : [])];
  for (const match of urls) {
    const trimmed = match[0].replace(URL_TRAILING, (tail) => (tail.startsWith('/') ? tail : ''));
    if (trimmed.length > 8) found.push(candidate('DOMAIN_NAME', match.index, match.index + trimmed.length, 'url', Strength.shapeInContext));
  }
  for (const match of text.matchAll(TOP_LEVEL_DOMAIN)) {
    const labels = HOST_LABELS.exec(text.slice(hostRunStart(text, match.index), match.index));
    if (labels === null) continue;
    const start = match.index - labels[0].length;
    found.push(candidate('DOMAIN_NAME', start, match.index + match[0].length, 'domain', Strength.guessed));
  }
  return found;
}

/**
 * 12 to 19 digits, contiguous or in groups of 3 to 6 separated by one space or hyphen (the reading
 * has made every space and dash one of these; "4111 1111-1111 1111" mixes them to slip past a filter).
 */
const CARD = /(?<![\p{L}\p{N}.,-])\d{4,6}(?:[ -]\d{3,6}(?:[ -]\d{1,6}){0,3}|\d{6,15})(?![\p{L}\p{N}]|[.,-]\d)/gu;
const CARD_WORDS = /\b(?:card|cards|cc|credit|debit|visa|master ?card|amex|american express|discover|diners|jcb|maestro|unionpay|pan)\b(?:[^.?!\n]{0,24}|[?:]\s{0,3})$/i;

export function findCards(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(CARD)) {
    const digits = digitsOf(match[0]);
    if (digits.length < 12 || digits.length > 19 || !luhnValid(digits)) continue;
    const end = match.index + match[0].length;
    if (cardNetwork(digits) !== null) found.push(candidate('CREDIT_CARD', match.index, end, 'luhn', Strength.checked));
    // A number that passes Luhn by chance (one in ten do) outside the issuers' ranges: only when a card is spoken of.
    else if (saidBefore(text, match.index, CARD_WORDS)) found.push(candidate('CREDIT_CARD', match.index, end, 'luhn_context', Strength.shapeInContext));
  }
  return found;
}

/** Country code, check digits, then the account in groups of four (spaces or hyphens optional), any case. */
const IBAN = /(?<![\p{L}\p{N}])[A-Za-z]{2}\d{2}(?:[ -]?[A-Za-z0-9]{4}){2,7}(?:[ -]?[A-Za-z0-9]{1,3})?(?![\p{L}\p{N}])/gu;

export function findIbans(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(IBAN)) {
    // The grouping may have taken a following word's letters: try shorter ends until the check passes.
    let value = match[0];
    while (value.length >= 15 && !ibanValid(value)) value = value.slice(0, -1).replace(/[ -]+$/, '');
    if (value.length >= 15) found.push(candidate('IBAN_CODE', match.index, match.index + value.length, 'iban_mod97', Strength.checked));
  }
  return found;
}

const SSN = /(?<![\p{L}\p{N}-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\p{L}\p{N}]|-\d)/gu;
const SSN_BARE = /(?<![\p{L}\p{N}-])\d{9}(?![\p{L}\p{N}]|-\d)/gu;
const SSN_WORDS = /\b(?:ssn|ss#|ssns|social security(?: number| no\.?)?|social sec\.?)\b[^.?!\n]{0,20}$/i;

export function findSsns(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(SSN)) {
    const digits = digitsOf(match[0]);
    if (!ssnValid(digits)) continue;
    // Hyphens are how an SSN is written; spaced digits are one only where the text says so.
    const spoken = saidBefore(text, match.index, SSN_WORDS);
    if (match[2] === '-' || spoken) found.push(candidate('US_SSN', match.index, match.index + match[0].length, 'ssn_format', spoken ? Strength.checked : Strength.shapeInContext));
  }
  for (const match of text.matchAll(SSN_BARE)) {
    if (ssnValid(match[0]) && saidBefore(text, match.index, SSN_WORDS)) found.push(candidate('US_SSN', match.index, match.index + 9, 'ssn_context', Strength.checked));
  }
  return found;
}

const IPV4 = /(?<![\p{L}\p{N}.])\d{1,3}(?:\.\d{1,3}){3}(?![\p{L}\p{N}]|\.\d)/gu;
/**
 * Hex digits, colons and dots around a colon, at least two colons; the validator decides. Found from
 * each colon outwards: an expression that may start at any hex letter tries nearly every word.
 */
const IPV6_AROUND_COLON = /[0-9A-Fa-f:.]*$/;
const IPV6_AFTER_COLON = /^[0-9A-Fa-f:.]*/;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

export function findIpAddresses(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(IPV4)) {
    if (ipv4Valid(match[0])) found.push(candidate('IP_ADDRESS', match.index, match.index + match[0].length, 'ipv4', Strength.checked));
  }
  for (let colon = text.indexOf(':'); colon >= 0; colon = text.indexOf(':', colon + 1)) {
    const start = colon - IPV6_AROUND_COLON.exec(text.slice(Math.max(0, colon - 45), colon))![0].length;
    let end = colon + IPV6_AFTER_COLON.exec(text.slice(colon, colon + 46))![0].length;
    while (end > colon + 1 && text[end - 1] === '.') end--;
    const value = text.slice(start, end);
    colon = end;
    if (WORD_CHARACTER.test(text[start - 1] ?? '') || WORD_CHARACTER.test(text[end] ?? '')) continue;
    // A time of day (12:13:52) is not an address: an IPv6 address has a hex letter, "::" or many groups.
    if (!/[a-f]|::|(?:[^:]*:){5}/i.test(value) || !ipv6Valid(value)) continue;
    found.push(candidate('IP_ADDRESS', start, end, 'ipv6', Strength.checked));
  }
  return found;
}
