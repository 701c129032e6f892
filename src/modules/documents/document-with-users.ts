// A document's row with who made it and who changed it last, as the document repositories read it
// (USER_COLUMNS in document-listing.repo.ts) and the presenters show it. Declared apart from both so
// that the schemas, the listing and the repository can each name it without importing one another.
import type { DocumentRow, UserRow } from '../../db/schema.js';

export type DocumentWithUsers = DocumentRow & {
  created_by_email: UserRow['email'];
  created_by_first_name: UserRow['first_name'];
  created_by_last_name: UserRow['last_name'];
  modified_by_email: UserRow['email'];
};
