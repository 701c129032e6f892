// The checks that tell a real identifier from a number of the same shape: Luhn and issuer ranges,
// IBAN mod-97 and lengths, the SSA's format rules, IP address ranges.
import { describe, expect, it } from 'vitest';
import { cardNetwork, ibanValid, ipv4Valid, ipv6Valid, luhnValid, ssnValid } from '../src/guardrails/pii/validators.js';

describe('Luhn and card networks', () => {
  it.each(['4111111111111111', '5555555555554444', '378282246310005', '6011111111111117', '3530111333300000', '30569309025904', '4222222222222'])('accepts the test card %s', (number) => {
    expect(luhnValid(number)).toBe(true);
    expect(cardNetwork(number)).not.toBeNull();
  });

  it.each(['4111111111111112', '5555555555554440', '378282246310006', '1234567812345678'])('refuses %s, whose check digit is wrong', (number) => {
    expect(luhnValid(number)).toBe(false);
  });

  it('knows the networks by prefix and length', () => {
    expect(cardNetwork('4111111111111111')).toBe('visa');
    expect(cardNetwork('2221000000000009')).toBe('mastercard');
    expect(cardNetwork('378282246310005')).toBe('amex');
    // A valid Luhn number of 16 digits starting with 9 belongs to no network.
    expect(cardNetwork('9111111111111110')).toBeNull();
    // Amex numbers have 15 digits, not 16.
    expect(cardNetwork('3782822463100050')).toBeNull();
  });

  it('refuses what is not digits', () => {
    expect(luhnValid('')).toBe(false);
    expect(luhnValid('4111 1111 1111 1111')).toBe(false);
  });
});

describe('IBAN', () => {
  it.each(['GB82WEST12345698765432', 'DE89370400440532013000', 'FR1420041010050500013M02606', 'NL91ABNA0417164300', 'gb82west12345698765432', 'GB82 WEST 1234 5698 7654 32'])('accepts %s', (iban) => {
    expect(ibanValid(iban)).toBe(true);
  });

  it.each([
    ['GB83WEST12345698765432', 'wrong check digits'],
    ['GB82WEST1234569876543', 'one character short for GB'],
    ['DE89370400440532013001', 'a changed digit'],
    ['XX82WEST12345698765432', 'no such country'],
    ['GB82-WEST-1234', 'not an IBAN at all'],
  ])('refuses %s (%s)', (iban) => {
    expect(ibanValid(iban)).toBe(false);
  });
});

describe('US social security numbers', () => {
  it.each(['123456780', '460899847', '023010866', '665123456'])('accepts %s', (ssn) => {
    expect(ssnValid(ssn)).toBe(true);
  });

  it.each([
    ['000123456', 'area 000'],
    ['666123456', 'area 666'],
    ['900123456', 'area in the 900s'],
    ['123001234', 'group 00'],
    ['123450000', 'serial 0000'],
    ['111111111', 'one repeated digit'],
    ['078051120', 'the number printed on a wallet insert'],
    ['12345678', 'eight digits'],
  ])('refuses %s (%s)', (ssn) => {
    expect(ssnValid(ssn)).toBe(false);
  });
});

describe('IP addresses', () => {
  it.each(['192.168.0.1', '8.8.8.8', '255.255.255.255', '0.0.0.0'])('accepts the IPv4 address %s', (ip) => {
    expect(ipv4Valid(ip)).toBe(true);
  });

  it.each(['256.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.a'])('refuses %s as IPv4', (ip) => {
    expect(ipv4Valid(ip)).toBe(false);
  });

  it.each(['2001:db8::1', '::1', '::', 'fe80::1', '6e40:4041:c617:e898:c11:40d2:c669:2eb4', '::ffff:192.0.2.1', '2001:0db8:0000:0000:0000:ff00:0042:8329'])('accepts the IPv6 address %s', (ip) => {
    expect(ipv6Valid(ip)).toBe(true);
  });

  it.each(['12:13:52', 'a::b::c', '1:2:3:4:5:6:7', '2001:db8::g', 'just text'])('refuses %s as IPv6', (ip) => {
    expect(ipv6Valid(ip)).toBe(false);
  });
});
