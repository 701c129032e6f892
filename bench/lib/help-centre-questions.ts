/** Questions of a help centre, asked of an agent without a corpus (suite `ask` and the peers' scripts). */
export const HELP_CENTRE_QUESTIONS = [
  'How do I send an invoice to a customer?',
  'Why was my payroll run rejected?',
  'Can I export last year’s expenses to a spreadsheet?',
  'How do I add a second bank account?',
  'Where do I change the VAT rate of a product?',
  'How do I give my accountant read-only access?',
  'What happens to unpaid invoices after 30 days?',
  'How can I restore a deleted receipt?',
];
