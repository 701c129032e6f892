// What a tool's factory may use to build a RunnableTool from a stored tool. Built once per app
// (src/services.ts) and handed to every factory through its kind (src/tools/kinds.ts); a kind
// takes what it needs and ignores the rest. Outbound HTTP goes through `egress` and nothing else.
import type { EgressClient } from '../net/egress.js';
import type { CorporaService } from '../modules/corpora/corpora.service.js';
import type { SearchService } from '../modules/retrieval/search.service.js';
import type { UnitOfWork } from '../repositories.js';
import type { BlobStore } from '../storage/blob-store.js';

export interface ToolDeps {
  /** The one outbound HTTP client (SSRF rules, deadline, byte cap). */
  egress: EgressClient;
  /** Repositories, for tools that read the database (attachments of a thread). */
  store: UnitOfWork;
  /** Search over corpora already checked for the caller (retrieval tools check with `corpora` first). */
  search: Pick<SearchService, 'searchCorpora'>;
  /** The caller's permission on a corpus: 404 / 403 for one the caller may not read. */
  corpora: Pick<CorporaService, 'requireCorpus'>;
  /** Stored files (attachments). */
  blobs: BlobStore;
  /** Most characters of one result the model is given (LIMIT_TOOL_OUTPUT_CHARACTERS): a tool cuts larger output itself. */
  maxOutputCharacters: number;
  /** Commands of local MCP servers the operator allows (MCP_STDIO_COMMANDS); none when absent. */
  stdioCommands?: readonly string[];
}
