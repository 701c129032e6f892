// detectPii: what it finds in text and where (UTF-16 offsets, as JavaScript strings index), overlaps
// resolved, the entities filter, and the bound a streaming filter relies on.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../src/guardrails/guardrail.js';
import { detectPii, PII_ENTITY_TYPES, PII_HOLD_BACK } from '../src/guardrails/pii/detect.js';

/** The findings as [type, the text found], in order. */
function found(text: string, entities?: readonly string[]): [string, string][] {
  return detectPii(text, entities).map((finding) => [finding.entity_type, text.slice(finding.start, finding.end)]);
}

function typesFound(text: string): string[] {
  return detectPii(text).map((finding) => finding.entity_type);
}

describe('structured identifiers', () => {
  it('finds e-mail addresses and the web addresses apart from them', () => {
    expect(found('Write to Jo.Smith+news@mail.example.co.uk or see https://www.example.com/about.')).toEqual([
      ['EMAIL_ADDRESS', 'Jo.Smith+news@mail.example.co.uk'],
      ['DOMAIN_NAME', 'https://www.example.com/about'],
    ]);
  });

  it('finds card numbers that pass Luhn, with or without separators, and not those that fail', () => {
    expect(found('Visa 4111 1111 1111 1111, Amex 3782-822463-10005, bad 4111111111111112.', ['CREDIT_CARD'])).toEqual([
      ['CREDIT_CARD', '4111 1111 1111 1111'],
      ['CREDIT_CARD', '3782-822463-10005'],
    ]);
  });

  it('takes a Luhn-valid number outside the issuers ranges only when a card is spoken of', () => {
    expect(found('Reference 9111111111111110 attached.', ['CREDIT_CARD'])).toEqual([]);
    expect(found('My card: 9111111111111110', ['CREDIT_CARD'])).toEqual([['CREDIT_CARD', '9111111111111110']]);
  });

  it('finds IBANs written in groups or in lower case, and not those whose check digits are wrong', () => {
    expect(found('Pay GB82 WEST 1234 5698 7654 32 or de89370400440532013000, not GB83WEST12345698765432.', ['IBAN_CODE'])).toEqual([
      ['IBAN_CODE', 'GB82 WEST 1234 5698 7654 32'],
      ['IBAN_CODE', 'de89370400440532013000'],
    ]);
  });

  it('finds SSNs by their format rules, and nine bare digits only after "SSN"', () => {
    expect(found('SSN 536-22-1234; 666-12-3456 and 536-00-1234 are impossible; id 536221234.', ['US_SSN'])).toEqual([['US_SSN', '536-22-1234']]);
    expect(found('My social security number is 536221234', ['US_SSN'])).toEqual([['US_SSN', '536221234']]);
    expect(found('666-12-3456')).toEqual([]);
  });

  it('finds IPv4 and IPv6 addresses, compressed forms included, and not versions or times', () => {
    expect(found('From 192.168.1.20 and 2001:db8::7 and ::1 at 12:13:52, version 1.2.3.4.5, 300.1.1.1', ['IP_ADDRESS'])).toEqual([
      ['IP_ADDRESS', '192.168.1.20'],
      ['IP_ADDRESS', '2001:db8::7'],
      ['IP_ADDRESS', '::1'],
    ]);
  });
});

describe('phone numbers', () => {
  it('finds US numbers as written, international numbers, and extensions', () => {
    expect(found('Call (415) 555-2671 or 415.555.2671 x204, +44 20 7946 0958, or 0041 44 668 18 00.', ['PHONE_NUMBER'])).toEqual([
      ['PHONE_NUMBER', '(415) 555-2671'],
      ['PHONE_NUMBER', '415.555.2671 x204'],
      ['PHONE_NUMBER', '+44 20 7946 0958'],
      ['PHONE_NUMBER', '0041 44 668 18 00'],
    ]);
  });

  it('takes a national number of another country when the text says it is a phone number', () => {
    expect(found('Mobile: 0494 92 82 32', ['PHONE_NUMBER'])).toEqual([['PHONE_NUMBER', '0494 92 82 32']]);
  });

  it('leaves dates, amounts and plain numbers alone', () => {
    expect(found('On 2020-06-20 we paid 1 250 000 for order 48213377 and 3 200.', ['PHONE_NUMBER'])).toEqual([]);
  });
});

describe('names, places and organisations', () => {
  it('finds a person after an honorific, and the honorific as a title', () => {
    expect(found('Mr. Nekrasov is a 22 year old man who grew up in Poznań.')).toEqual([
      ['TITLE', 'Mr.'],
      ['PERSON', 'Nekrasov'],
      ['AGE', '22'],
      ['GPE', 'Poznań'],
    ]);
  });

  it('finds full names with initials and accents', () => {
    expect(found('Please add Ryan P Costa and Šárka Ottová as guardians.')).toEqual([
      ['PERSON', 'Ryan P Costa'],
      ['PERSON', 'Šárka Ottová'],
    ]);
  });

  it('tells organisations by their last word or the words before them', () => {
    expect(found('I work for Wolters Kluwer; she joined Rapid Cycle Solutions.', ['ORGANIZATION'])).toEqual([
      ['ORGANIZATION', 'Wolters Kluwer'],
      ['ORGANIZATION', 'Rapid Cycle Solutions'],
    ]);
  });

  it('does not take capitalised ordinary words or labels for names', () => {
    expect(typesFound('Capitalized words like Wisdom and Discipline are no names.\nDesk: ask the Treaty office.')).toEqual([]);
  });

  it('finds nationalities and countries', () => {
    expect(found('I am Belgian but I live in Denmark.')).toEqual([
      ['NRP', 'Belgian'],
      ['GPE', 'Denmark'],
    ]);
  });
});

describe('other types', () => {
  it('finds dates, ages, postcodes, driver licences and street addresses', () => {
    expect(found("Born 2/8/1935, she turned 47 on Friday. My zip code is 90210. My driver's license number is D1234567.")).toEqual([
      ['DATE_TIME', '2/8/1935'],
      ['AGE', '47'],
      ['DATE_TIME', 'Friday'],
      ['ZIP_CODE', '90210'],
      ['US_DRIVER_LICENSE', 'D1234567'],
    ]);
    expect(found('Send it to 14 Crown Street\nSuite 321\nLONDON\nUnited Kingdom 75419 please', ['STREET_ADDRESS'])).toEqual([
      ['STREET_ADDRESS', '14 Crown Street\nSuite 321\nLONDON\nUnited Kingdom 75419'],
    ]);
  });
});

describe('offsets, overlaps and the entities filter', () => {
  it('gives UTF-16 offsets: characters outside the BMP before an entity count two', () => {
    const text = '😀 Grüße, Ελλάδα! 𝒳 mail: anna@example.org';
    const [email] = detectPii(text, ['EMAIL_ADDRESS']);
    expect(email).toEqual<Finding>({ entity_type: 'EMAIL_ADDRESS', start: text.indexOf('anna'), end: text.length, rule: 'email' });
    expect(text.slice(email!.start, email!.end)).toBe('anna@example.org');
  });

  it('returns findings sorted by start that never overlap', () => {
    const text = 'Card 4111111111111111, IBAN GB82WEST12345698765432, mail a@b.com, site example.com, call +1-415-555-2671. '.repeat(3);
    const findings = detectPii(text);
    for (let index = 1; index < findings.length; index++) expect(findings[index]!.start).toBeGreaterThanOrEqual(findings[index - 1]!.end);
    expect(findings.length).toBeGreaterThanOrEqual(15);
  });

  it('lets a checked identifier win over a weaker reading of the same digits', () => {
    // 16 digits are also a possible phone number: the Luhn-checked card wins.
    expect(found('Call me about card 4111111111111111')).toEqual([['CREDIT_CARD', '4111111111111111']]);
    // The host name inside an e-mail address is not reported apart from it.
    expect(found('jo@example.com')).toEqual([['EMAIL_ADDRESS', 'jo@example.com']]);
  });

  it('reports only the types asked for, the same as when all are asked for', () => {
    const text = 'Mail jo@example.com, card 4111111111111111, phone +44 20 7946 0958.';
    expect(found(text, ['PHONE_NUMBER'])).toEqual([['PHONE_NUMBER', '+44 20 7946 0958']]);
    expect(found(text, ['CREDIT_CARD', 'EMAIL_ADDRESS']).map(([type]) => type)).toEqual(['EMAIL_ADDRESS', 'CREDIT_CARD']);
    expect(found(text, [])).toEqual([]);
    expect(found(text, ['NOT_A_TYPE'])).toEqual([]);
  });

  it('lists the types it finds under their Presidio names', () => {
    for (const type of ['PERSON', 'EMAIL_ADDRESS', 'PHONE_NUMBER', 'CREDIT_CARD', 'IBAN_CODE', 'US_SSN', 'IP_ADDRESS', 'STREET_ADDRESS', 'DATE_TIME', 'GPE', 'ORGANIZATION', 'DOMAIN_NAME']) {
      expect(PII_ENTITY_TYPES).toContain(type);
    }
  });
});

describe('bounds', () => {
  it('finds an entity whole within the hold-back window, wherever the text around it is cut', () => {
    const entity = '14 Crown Street\nSuite 321\nLONDON\nUnited Kingdom 75419';
    const text = `${'Some words here. '.repeat(40)}Please send it to ${entity} soon.`;
    const [address] = detectPii(text, ['STREET_ADDRESS']);
    // What a streaming filter reads: the held-back window before the entity and after its start.
    const window = text.slice(address!.start - PII_HOLD_BACK, address!.start + PII_HOLD_BACK);
    expect(found(window, ['STREET_ADDRESS'])).toEqual([['STREET_ADDRESS', entity]]);
    expect(address!.end - address!.start).toBeLessThan(PII_HOLD_BACK);
  });

  it('keeps an address within 160 characters however many parts follow it', () => {
    const parts = Array.from({ length: 30 }, (_, index) => `Townname${index}`).join('\n');
    const [address] = detectPii(`Ship to 14 Crown Street\n${parts}`, ['STREET_ADDRESS']);
    expect(address!.end - address!.start).toBeLessThanOrEqual(160);
  });

  it('answers at once on empty, odd and long input', () => {
    expect(detectPii('')).toEqual([]);
    expect(() => detectPii('\u0000\uD800 @@@ ::: ... 1-1-1-1-1-1-1-1-1-1-1-1 '.repeat(500))).not.toThrow();
    const long = 'Aaaa '.repeat(20_000) + '1'.repeat(5_000) + ':'.repeat(5_000);
    const started = performance.now();
    detectPii(long);
    // Generous bound: a backtracking expression would take seconds here.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
