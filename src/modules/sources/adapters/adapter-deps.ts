// What every adapter of the sources engine works with: the store, the intake that writes its
// documents, the secret box that opens its credentials, and the detection of a file's type.
import type { UnitOfWork } from '../../../repositories.js';
import type { SecretBox } from '../../../secrets/secret-box.js';
import type { DocumentIntake } from '../../documents/intake.js';

export interface AdapterDeps {
  store: UnitOfWork;
  intake: DocumentIntake;
  secrets: SecretBox;
  /** The document type decided from the content, or undefined when it cannot be processed. */
  detectType(bytes: Buffer): string | undefined;
}
