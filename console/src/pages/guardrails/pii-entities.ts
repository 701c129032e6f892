// The kinds of personal data the server's detector finds (PII_ENTITY_TYPES of
// src/guardrails/pii/detect.ts, named as Presidio names them; docs/pii.md), with what each is.
export const PII_ENTITIES: readonly { id: string; label: string }[] = [
  { id: 'EMAIL_ADDRESS', label: 'E-mail address' },
  { id: 'PHONE_NUMBER', label: 'Phone number' },
  { id: 'CREDIT_CARD', label: 'Credit card number' },
  { id: 'IBAN_CODE', label: 'IBAN' },
  { id: 'US_SSN', label: 'US social security number' },
  { id: 'US_DRIVER_LICENSE', label: 'US driver licence' },
  { id: 'IP_ADDRESS', label: 'IP address' },
  { id: 'DOMAIN_NAME', label: 'Domain name' },
  { id: 'STREET_ADDRESS', label: 'Street address' },
  { id: 'ZIP_CODE', label: 'Postcode' },
  { id: 'DATE_TIME', label: 'Date or time' },
  { id: 'AGE', label: 'Age' },
  { id: 'PERSON', label: 'Person' },
  { id: 'TITLE', label: 'Title (Mr, Dr…)' },
  { id: 'ORGANIZATION', label: 'Organization' },
  { id: 'GPE', label: 'Place (country, city)' },
  { id: 'NRP', label: 'Nationality, religion or politics' },
];

/** What a finding's entity type is called for a person (the name as the server gives it, too). */
export function findingName(entityType: string): string {
  const entity = PII_ENTITIES.find((candidate) => candidate.id === entityType);
  if (entity !== undefined) return entity.label;
  return FINDING_NAMES[entityType] ?? entityType;
}

const FINDING_NAMES: Record<string, string> = {
  BLOCKED_TERM: 'Blocked term',
  BLOCKED_PATTERN: 'Blocked pattern',
  LENGTH: 'Too long',
  DENIED_TOPIC: 'Denied topic',
  OFF_TOPIC: 'Off topic',
};
