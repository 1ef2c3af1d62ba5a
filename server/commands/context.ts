// The Context a command runs against: every port in ports/, split by role (request, files, applying,
// review, search, symbols, progress, agents). Commands and their helpers take only the ports they use, so a
// test can run one against a small in-memory fake (test/commands/); server/workspace/context.ts
// implements the whole of it over the live server state.
import type { AgentsPort } from './ports/agents.js';
import type { ApplyPort } from './ports/apply.js';
import type { FilesPort } from './ports/files.js';
import type { ProgressPort } from './ports/progress.js';
import type { RequestPort } from './ports/request.js';
import type { ReviewPort } from './ports/review.js';
import type { SearchPort } from './ports/search.js';
import type { SymbolsPort } from './ports/symbols.js';

export interface Context extends RequestPort, FilesPort, ApplyPort, ReviewPort, SearchPort, SymbolsPort, ProgressPort, AgentsPort {}
