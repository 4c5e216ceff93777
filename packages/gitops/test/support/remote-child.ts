/**
 * One applier process for the remote concurrency test: sets agent-<i>'s secrets on the
 * remote URL, through its own cache folder, and prints the result as JSON.
 */
import { setAgentScope } from '../../src/index.js';
import { applyOptions } from './repos.js';

const [url, index, cache] = process.argv.slice(2);
const result = await setAgentScope(
  url!,
  `agent-${index}`,
  { secrets: [`SECRET_${index}`] },
  { ...(await applyOptions({ maxAttempts: 200 })), cache: cache! },
);
process.stdout.write(JSON.stringify({ status: result.status, commit: result.commit, attempts: result.attempts }));
