// Checks that tell a real identifier from a number of the same shape: check digits (Luhn, mod-97),
// issuer prefixes and lengths, the format rules of US social security numbers, address ranges.
import ipaddr from 'ipaddr.js';

/** Only the digits of a string (separators dropped). */
export function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

/** The Luhn check digit algorithm (ISO/IEC 7812-1) over a string of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * Issuer identification number ranges and the lengths each network issues, from the networks'
 * published ranges: a number that passes Luhn but matches none of them is not taken for a card
 * unless the text speaks of a card.
 */
const CARD_NETWORKS: readonly { name: string; prefixes: readonly (string | [number, number])[]; lengths: readonly number[] }[] = [
  { name: 'visa', prefixes: ['4'], lengths: [13, 16, 19] },
  { name: 'mastercard', prefixes: [[51, 55], [2221, 2720]], lengths: [16] },
  { name: 'amex', prefixes: ['34', '37'], lengths: [15] },
  { name: 'discover', prefixes: ['6011', [644, 649], '65', [622126, 622925]], lengths: [16, 17, 18, 19] },
  { name: 'diners', prefixes: [[300, 305], '3095', '36', '38', '39'], lengths: [14, 15, 16, 17, 18, 19] },
  { name: 'jcb', prefixes: [[3528, 3589]], lengths: [16, 17, 18, 19] },
  { name: 'jcb15', prefixes: ['1800', '2131'], lengths: [15] },
  { name: 'unionpay', prefixes: ['62', '81'], lengths: [16, 17, 18, 19] },
  { name: 'maestro', prefixes: ['50', [56, 69], '6304', '6759', '6761', '6762', '6763'], lengths: [12, 13, 14, 15, 16, 17, 18, 19] },
  { name: 'mir', prefixes: [[2200, 2204]], lengths: [16, 17, 18, 19] },
];

function prefixMatches(digits: string, prefix: string | [number, number]): boolean {
  if (typeof prefix === 'string') return digits.startsWith(prefix);
  const [low, high] = prefix;
  const head = Number(digits.slice(0, String(low).length));
  return head >= low && head <= high;
}

/** The card network whose ranges and lengths the number fits, or null. */
export function cardNetwork(digits: string): string | null {
  for (const network of CARD_NETWORKS) {
    if (!network.lengths.includes(digits.length)) continue;
    if (network.prefixes.some((prefix) => prefixMatches(digits, prefix))) return network.name;
  }
  return null;
}

/** IBAN lengths per country (ISO 13616 registry). */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21,
  CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18,
  FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26,
  IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27, MD: 24,
  ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29,
  PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23,
  ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
};

/** An IBAN (spaces allowed, any case): its country's length and the ISO 7064 mod-97 check. */
export function ibanValid(text: string): boolean {
  const iban = text.replace(/[\s-]+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

/** The longest IBAN of any country, for the streaming hold-back. */
export const IBAN_MAX_LENGTH = Math.max(...Object.values(IBAN_LENGTHS));

/**
 * A US social security number's format rules (SSA): area neither 000, 666 nor 900-999, group not 00,
 * serial not 0000; numbers of one repeated digit and the ones printed in advertisements are refused.
 */
export function ssnValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const area = digits.slice(0, 3);
  if (area === '000' || area === '666' || area[0] === '9') return false;
  if (digits.slice(3, 5) === '00' || digits.slice(5) === '0000') return false;
  if (/^(\d)\1{8}$/.test(digits)) return false;
  return !['078051120', '219099999', '123456789'].includes(digits);
}

/** A dotted-quad IPv4 address: four decimal octets up to 255, no leading zeros. */
export function ipv4Valid(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^(?:0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255);
}

/** An IPv6 address in any of its textual forms (RFC 4291 and 5952: compressed, IPv4 suffix). */
export function ipv6Valid(text: string): boolean {
  if (!text.includes(':')) return false;
  return ipaddr.IPv6.isValid(text);
}
