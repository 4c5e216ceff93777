/**
 * The operations, in one table. Each row is one operation: the library function (bound
 * to a repository path or URL as its first argument), where the SDK puts it (the project
 * handle or `marketplace.*`), and its command-line form (command, arguments, output).
 * The named exports, `marketplace`, its `registry` alias, `project(repo)`, the CLI
 * commands and the usage text are all derived from this table: adding an operation is
 * one row (plus its edit, tests and docs).
 */
import type { ApplyResult } from './applier.js';
import { printableSource, printApply, printUpdate, printUpdateAll, type CliOutput } from './cli/output.js';
import { ItemCache, openCatalog, type Catalog, type CatalogLimits } from './marketplace/catalog.js';
import { installEdit, type InstallInfo } from './marketplace/install.js';
import { LOCK_PATH, parseLock } from './marketplace/lockfile.js';
import { compareCodeUnits } from './marketplace/item.js';
import { removeEdit, type RemoveInfo } from './marketplace/remove.js';
import {
  availableUpdates,
  updateAllEdit,
  updateEdit,
  type AvailableUpdate,
  type UpdateAllInfo,
  type UpdateInfo,
} from './marketplace/update.js';
import {
  setAgentScopeEdit,
  setDefaultAgentEdit,
  type AgentChangeInfo,
  type AgentScope,
  type Allowlist,
} from './operations/agents.js';
import type { ManifestLocation } from './operations/manifest-access.js';
import { applyEdit, readBranch, type ReadOptions, type WriteOptions } from './remote/target.js';

export type { ReadOptions, WriteOptions } from './remote/target.js';

export interface CatalogOptions {
  /** A {@link Catalog}, an http(s) URL of the marketplace, or a folder. */
  catalog: Catalog | string;
  /** Size and time bounds on catalog reads (defaults: `DEFAULT_CATALOG_LIMITS`). */
  limits?: Partial<CatalogLimits>;
}

/** One installed marketplace item, as the lock file records it. */
export interface InstalledItem {
  name: string;
  version: string;
  /** The catalog id it was installed by. */
  id: string;
  /** The catalog it came from. */
  source: string;
  /** Repository paths the item placed, sorted. */
  files: string[];
}

/** What the command line hands an operation: its arguments, options and the common options. */
export interface CliInput {
  readonly command: string;
  /** Exactly one positional argument (`what` names it in the usage error). */
  one(what: string): string;
  /** No positional arguments. */
  none(): void;
  /** A valued option of this command (`--secrets a,b`). */
  option(name: string): string | undefined;
  /** A boolean option of this command (`--force`). */
  flag(name: string): boolean;
  /** `--catalog DIR|URL`, required. */
  catalog(): string;
  /** Common options for writes (branch, author, committer, message, cache, timeout). */
  readonly write: WriteOptions;
  /** Common options for reads (branch, cache, timeout). */
  readonly read: ReadOptions;
  /** A usage error (exit 2). */
  usage(message: string): Error;
  /**
   * Which manifest to edit: `--manifest PATH` (relative to the current folder) as a repository
   * path; without it, for the repository of the current folder, a search from that folder up.
   */
  manifestLocation(): Promise<ManifestLocation>;
}

export type Group = 'project' | 'marketplace';

type RepoFunction = (repo: string, ...args: never[]) => Promise<unknown>;
type Bound<F> = F extends (repo: string, ...args: infer A) => infer R ? (...args: A) => R : never;

export interface Operation<F extends RepoFunction = RepoFunction, G extends Group = Group> {
  /** Where the SDK exposes it: `svc.project(id).<name>` or `marketplace.<name>` / `registry.<name>`. */
  group: G;
  /** The command-line name. */
  command: string;
  /** Arguments and options after the command, for the usage text. */
  synopsis: string;
  /** One line for the usage text. */
  summary: string;
  /** Options only this command takes: `value` ones take an argument, `flag` ones do not. */
  options?: Readonly<Record<string, 'value' | 'flag'>>;
  /** The library function; its first parameter is the repository (path or git URL). */
  call: F;
  /** Runs the operation from the command line: reads `input`, calls `call` (the library function bound to the repository). */
  cli: (input: CliInput, call: Bound<NoInfer<F>>) => ReturnType<NoInfer<F>>;
  /** Text output; the result is printed as JSON instead under `--format json`. */
  print: (result: Awaited<ReturnType<NoInfer<F>>>, out: CliOutput) => void;
  /** Exit code for a result (default 0). */
  exitCode?: (result: Awaited<ReturnType<NoInfer<F>>>) => number;
}

/** Checks a row's parts against each other (the CLI adapter must produce the call's arguments). */
function operation<F extends RepoFunction, G extends Group>(row: Operation<F, G>): Operation<F, G> {
  return row;
}

function itemCache(options: CatalogOptions): ItemCache {
  return new ItemCache(
    typeof options.catalog === 'string' ? openCatalog(options.catalog, options.limits) : options.catalog,
    options.limits,
  );
}

function parseAllowlist(input: CliInput, flag: string): Allowlist | undefined {
  const value = input.option(flag);
  if (value === undefined) return undefined;
  if (value === 'all' || value === 'none') return value;
  const names = value.split(',').map((name) => name.trim());
  if (names.some((name) => name === ''))
    throw input.usage(`--${flag} takes a comma-separated list of names, all or none`);
  return names;
}

const CATALOG = { catalog: 'value' } as const;

/** `--manifest PATH`: the manifest to edit, when it is not at the repository's root. */
const MANIFEST_OPTION = { manifest: 'value' } as const;

/** Only the location fields of an options object (the edit keeps nothing else). */
function manifestLocation(options: ManifestLocation | undefined): ManifestLocation {
  return {
    ...(options?.manifest !== undefined ? { manifest: options.manifest } : {}),
    ...(options?.searchFrom !== undefined ? { searchFrom: options.searchFrom } : {}),
  };
}

export const OPERATIONS = {
  setDefaultAgent: operation({
    group: 'project',
    command: 'set-default-agent',
    synopsis: 'NAME',
    summary: 'make a declared, enabled agent the default (svc_version 2)',
    options: MANIFEST_OPTION,
    call: (
      repo: string,
      name: string,
      options?: WriteOptions & ManifestLocation,
    ): Promise<ApplyResult<AgentChangeInfo>> =>
      applyEdit(repo, setDefaultAgentEdit(name, manifestLocation(options)), options),
    cli: async (input, call) => call(input.one('agent name'), { ...input.write, ...(await input.manifestLocation()) }),
    print: printApply,
  }),

  setAgentScope: operation({
    group: 'project',
    command: 'set-agent-scope',
    synopsis: 'NAME [--secrets a,b|all|none] [--connectors a,b|all|none]',
    summary: "set an agent's secrets and/or connectors allowlists",
    options: { secrets: 'value', connectors: 'value', ...MANIFEST_OPTION },
    call: (
      repo: string,
      name: string,
      scope: AgentScope,
      options?: WriteOptions & ManifestLocation,
    ): Promise<ApplyResult<AgentChangeInfo>> =>
      applyEdit(repo, setAgentScopeEdit(name, scope, manifestLocation(options)), options),
    cli: async (input, call) => {
      const name = input.one('agent name');
      const secrets = parseAllowlist(input, 'secrets');
      const connectors = parseAllowlist(input, 'connectors');
      if (!secrets && !connectors) throw input.usage('set-agent-scope needs --secrets and/or --connectors');
      return call(
        name,
        { ...(secrets ? { secrets } : {}), ...(connectors ? { connectors } : {}) },
        { ...input.write, ...(await input.manifestLocation()) },
      );
    },
    print: printApply,
  }),

  list: operation({
    group: 'marketplace',
    command: 'list',
    synopsis: '',
    summary: 'installed items: name, version, catalog id and source, files',
    call: (repo: string, options: ReadOptions = {}): Promise<InstalledItem[]> =>
      readBranch(repo, options, async (snapshot) => installedItems(await snapshot.read(LOCK_PATH))),
    cli: (input, call) => {
      input.none();
      return call(input.read);
    },
    print: (items, out) => {
      if (items.length === 0) out.stdout('no items installed\n');
      for (const item of items) {
        out.stdout(`${item.name} ${item.version} (${item.id} from ${printableSource(item.source)})\n`);
        for (const path of item.files) out.stdout(`  ${path}\n`);
      }
    },
  }),

  install: operation({
    group: 'marketplace',
    command: 'install',
    synopsis: 'ID --catalog DIR|URL',
    summary: 'install a catalog item (its files, manifest entries and lock record)',
    options: CATALOG,
    call: (repo: string, id: string, options: WriteOptions & CatalogOptions): Promise<ApplyResult<InstallInfo>> =>
      applyEdit(repo, installEdit(itemCache(options), id), options),
    cli: (input, call) => call(input.one('item id'), { ...input.write, catalog: input.catalog() }),
    print: printApply,
  }),

  updates: operation({
    group: 'marketplace',
    command: 'updates',
    synopsis: '--catalog DIR|URL',
    summary: 'installed items with a newer version in the catalog',
    options: CATALOG,
    call: (repo: string, options: ReadOptions & CatalogOptions): Promise<AvailableUpdate[]> =>
      readBranch(repo, options, (snapshot) => availableUpdates(snapshot, itemCache(options))),
    cli: (input, call) => {
      input.none();
      return call({ ...input.read, catalog: input.catalog() });
    },
    print: (available, out) => {
      if (available.length === 0) out.stdout('all installed items are up to date\n');
      for (const row of available) out.stdout(`${row.name} ${row.installed} -> ${row.available}\n`);
    },
  }),

  update: operation({
    group: 'marketplace',
    command: 'update',
    synopsis: 'NAME --catalog DIR|URL',
    summary: 'update one item, keeping local edits (three-way)',
    options: CATALOG,
    call: (repo: string, name: string, options: WriteOptions & CatalogOptions): Promise<ApplyResult<UpdateInfo>> =>
      applyEdit(repo, updateEdit(itemCache(options), name), options),
    cli: (input, call) => call(input.one('item name'), { ...input.write, catalog: input.catalog() }),
    print: (result, out) => {
      printUpdate(result.info, out);
      printApply(result, out);
    },
  }),

  updateAll: operation({
    group: 'marketplace',
    command: 'update-all',
    synopsis: '--catalog DIR|URL',
    summary: 'update every item that has a newer version, in one commit',
    options: CATALOG,
    call: (repo: string, options: WriteOptions & CatalogOptions): Promise<ApplyResult<UpdateAllInfo>> =>
      applyEdit(repo, updateAllEdit(itemCache(options)), options),
    cli: (input, call) => {
      input.none();
      return call({ ...input.write, catalog: input.catalog() });
    },
    print: printUpdateAll,
    exitCode: (result) => (result.info.refused.length > 0 ? 1 : 0),
  }),

  remove: operation({
    group: 'marketplace',
    command: 'remove',
    synopsis: 'NAME [--force]',
    summary: 'remove an item; locally edited files or entries only with --force',
    options: { force: 'flag' },
    call: (
      repo: string,
      name: string,
      options: WriteOptions & { force?: boolean } = {},
    ): Promise<ApplyResult<RemoveInfo>> => applyEdit(repo, removeEdit(name, { force: options.force }), options),
    cli: (input, call) => call(input.one('item name'), { ...input.write, force: input.flag('force') }),
    print: printApply,
  }),
};

/** The installed items of a lock file, sorted by name. */
export function installedItems(lockBytes: Uint8Array | null): InstalledItem[] {
  const lock = parseLock(lockBytes);
  return Object.entries(lock.items)
    .sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([name, item]) => ({
      name,
      version: item.version,
      id: item.id,
      source: item.source,
      files: Object.keys(item.files).sort(),
    }));
}

type Operations = typeof OPERATIONS;
type GroupMembers<G extends Group> = {
  [K in keyof Operations as Operations[K]['group'] extends G ? K : never]: Operations[K]['call'];
};
type BoundGroup<G extends Group> = { [K in keyof GroupMembers<G>]: Bound<GroupMembers<G>[K]> };

function members<G extends Group>(group: G): GroupMembers<G> {
  const out: Record<string, unknown> = {};
  for (const [name, row] of Object.entries(OPERATIONS)) if (row.group === group) out[name] = row.call;
  return out as GroupMembers<G>;
}

/**
 * Every operation as a named function, repository (path or git URL) first: e.g.
 * `setDefaultAgent(repo, name, options?)`, `install(repo, id, { catalog })`; what each
 * does is its row's `summary` above.
 */
export const { setDefaultAgent, setAgentScope, list, install, updates, update, updateAll, remove } = Object.fromEntries(
  Object.entries(OPERATIONS).map(([name, row]) => [name, row.call]),
) as { [K in keyof Operations]: Operations[K]['call'] };

/** The SDK's `marketplace.*`, each taking the repository (path or git URL) first. */
export const marketplace: GroupMembers<'marketplace'> = members('marketplace');

/** The SDK's `registry.*`: the very same functions as {@link marketplace}. */
export const registry: GroupMembers<'marketplace'> = marketplace;

/** A project handle: every operation bound to one repository (path or git URL), like the SDK's `svc.project(id)`. */
export type Project = BoundGroup<'project'> & {
  marketplace: BoundGroup<'marketplace'>;
  registry: BoundGroup<'marketplace'>;
};

export function project(repo: string): Project {
  const bind = (group: Group) => {
    const out: Record<string, unknown> = {};
    for (const [name, row] of Object.entries(OPERATIONS)) {
      if (row.group === group)
        out[name] = (...args: unknown[]) =>
          (row.call as (repo: string, ...rest: unknown[]) => Promise<unknown>)(repo, ...args);
    }
    return out;
  };
  const market = bind('marketplace') as BoundGroup<'marketplace'>;
  return { ...(bind('project') as BoundGroup<'project'>), marketplace: market, registry: market };
}
