/** The schema model's cache of subschemas by path (issue #33: cache keys must be injective). */
import { describe, expect, it } from 'vitest';
import { schemasAt } from '../src/schema-model.js';

describe('schemasAt', () => {
  it('keeps paths apart that joined keys would make one (a key holding the separator)', () => {
    // An agent's schema is cached for ['agents', 'main']; a top-level extra key "agents.main" is no agent.
    const agent = schemasAt(2, ['agents', 'main']);
    expect(agent.length).toBeGreaterThan(0);
    const extraKey = schemasAt(2, ['agents.main']);
    expect(extraKey).toEqual(schemasAt(2, ['some_extra_key']));
    expect(extraKey).not.toEqual(agent);
  });

  it('reads every index of a list as the same item schema', () => {
    expect(schemasAt(2, ['triggers', 3])).toEqual(schemasAt(2, ['triggers', 0]));
  });
});
