/**
 * One applier process for the concurrency test: sets agent-<i>'s secrets on the bare
 * repository given on the command line and prints the result as JSON.
 */
import { setAgentScope } from '../../src/index.js';
import { applyOptions } from './repos.js';

const [repo, index] = process.argv.slice(2);
const result = await setAgentScope(
  repo!,
  `agent-${index}`,
  { secrets: [`SECRET_${index}`] },
  await applyOptions({ maxAttempts: 200 }),
);
process.stdout.write(JSON.stringify({ status: result.status, commit: result.commit, attempts: result.attempts }));
