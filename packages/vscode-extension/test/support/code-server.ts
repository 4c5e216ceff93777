/**
 * Runs code-server (VS Code in a browser) for the end-to-end test: finds the
 * tools installed by scripts/install-code-server.sh, installs a .vsix, starts
 * the server in its own process group and stops that whole group again.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { describe, it } from 'vitest';

export interface E2eTools {
  node: string;
  codeServerEntry: string;
  codeServerVersion: string;
  chromium: string;
}

/** The tools the install script recorded, or why they cannot be used. */
function findTools(): { tools?: E2eTools; missing?: string } {
  const dir = process.env.SVC_E2E_TOOLS || join(homedir(), '.cache', 'svc-e2e');
  const manifest = join(dir, 'tools.json');
  if (!existsSync(manifest)) {
    return { missing: `${manifest} not found; run packages/vscode-extension/scripts/install-code-server.sh` };
  }
  const tools = JSON.parse(readFileSync(manifest, 'utf8')) as E2eTools;
  for (const [what, file] of [
    ['Node 24', tools.node],
    ['code-server', tools.codeServerEntry],
    ['chromium', tools.chromium],
  ] as const) {
    if (!existsSync(file))
      return { missing: `${what} not found at ${file}; run packages/vscode-extension/scripts/install-code-server.sh` };
  }
  return { tools };
}

/**
 * The tools for the suite named `suite`, or undefined when they are missing: the suite is then
 * skipped with a warning, unless SVC_E2E_REQUIRED=1 or CI is set, where a test of that name fails
 * saying what is missing.
 */
export function toolsFor(suite: string): E2eTools | undefined {
  const { tools, missing } = findTools();
  if (tools) return tools;
  const required = process.env.SVC_E2E_REQUIRED === '1' || !!process.env.CI;
  console.warn(`[${suite}] ${required ? 'FAILING' : 'SKIPPED'}: code-server/chromium not installed (${missing}).`);
  if (required)
    describe(suite, () => {
      it('has code-server and chromium installed', () => {
        throw new Error(`code-server/chromium not installed: ${missing}`);
      });
    });
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface CodeServerDirs {
  /** Root of everything code-server writes (a temp dir, never $HOME). */
  root: string;
  userDataDir: string;
  extensionsDir: string;
  configFile: string;
}

export function prepareDirs(root: string, userSettings: Record<string, unknown>): CodeServerDirs {
  const dirs: CodeServerDirs = {
    root,
    userDataDir: join(root, 'user-data'),
    extensionsDir: join(root, 'extensions'),
    configFile: join(root, 'config.yaml'),
  };
  mkdirSync(join(dirs.userDataDir, 'User'), { recursive: true });
  mkdirSync(dirs.extensionsDir, { recursive: true });
  writeFileSync(join(dirs.userDataDir, 'User', 'settings.json'), JSON.stringify(userSettings, null, 2));
  return dirs;
}

function baseArgs(tools: E2eTools, dirs: CodeServerDirs): string[] {
  return [
    tools.codeServerEntry,
    '--config',
    dirs.configFile,
    '--user-data-dir',
    dirs.userDataDir,
    '--extensions-dir',
    dirs.extensionsDir,
  ];
}

/** Environment for code-server: XDG dirs inside the temp root, so nothing lands in $HOME. */
function env(dirs: CodeServerDirs): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: join(dirs.root, 'home'),
    XDG_CONFIG_HOME: join(dirs.root, 'xdg-config'),
    XDG_DATA_HOME: join(dirs.root, 'xdg-data'),
    XDG_CACHE_HOME: join(dirs.root, 'xdg-cache'),
  };
  // code-server reads these; a developer's own values must not leak in.
  for (const k of [
    'PASSWORD',
    'HASHED_PASSWORD',
    'PORT',
    'VSCODE_PROXY_URI',
    'CODE_SERVER_CONFIG',
    'VSCODE_IPC_HOOK_CLI',
  ])
    delete e[k];
  return e;
}

/** `code-server --install-extension <vsix>`; returns its output, throws on failure. */
export function installExtension(tools: E2eTools, dirs: CodeServerDirs, vsix: string): string {
  if (!existsSync(dirs.configFile)) writeFileSync(dirs.configFile, 'auth: none\ncert: false\n');
  const r = spawnSync(tools.node, [...baseArgs(tools, dirs), '--install-extension', vsix, '--force'], {
    env: env(dirs),
    encoding: 'utf8',
    timeout: 120_000,
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) throw new Error(`code-server --install-extension failed (${r.status ?? r.signal}):\n${out}`);
  return out;
}

/** `code-server --list-extensions --show-versions`. */
export function listExtensions(tools: E2eTools, dirs: CodeServerDirs): string[] {
  const r = spawnSync(tools.node, [...baseArgs(tools, dirs), '--list-extensions', '--show-versions'], {
    env: env(dirs),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return (r.stdout ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[\w-]+\.[\w-]+@/.test(l));
}

export interface RunningCodeServer {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts code-server on 127.0.0.1 with auth none, opening `folder`; resolves once it answers HTTP. */
export async function startCodeServer(
  tools: E2eTools,
  dirs: CodeServerDirs,
  folder: string,
  logFile: string,
): Promise<RunningCodeServer> {
  const port = await freePort();
  writeFileSync(dirs.configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const log = createWriteStream(logFile);
  const child = spawn(
    tools.node,
    [
      ...baseArgs(tools, dirs),
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      folder,
    ],
    // Its own process group, so stop() reaches the extension host and the
    // language server it forks, too.
    { env: env(dirs), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    await killGroup(child, exited);
    log.end();
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`code-server exited early (${child.exitCode ?? child.signalCode}); see ${logFile}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return { url, port, process: child, stop };
      lastError = `HTTP ${res.status}`;
    } catch (err) {
      lastError = String(err);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`code-server did not answer on ${url} within 90 s (${lastError}); see ${logFile}`);
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM the process group, wait, then SIGKILL whatever is left. Resolves when the group is gone. */
async function killGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const waitGone = async (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end && groupAlive(pid)) await new Promise((r) => setTimeout(r, 100));
    return !groupAlive(pid);
  };
  if (groupAlive(pid)) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
    if (!(await waitGone(10_000))) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await waitGone(5_000);
    }
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))]);
  if (groupAlive(pid)) throw new Error(`processes of group ${pid} are still running after SIGKILL`);
}

/** PIDs of running processes whose command line contains every one of `parts` (Linux /proc). */
export function findProcesses(...parts: string[]): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      continue;
    }
    if (parts.every((p) => cmdline.includes(p))) pids.push(Number(entry));
  }
  return pids;
}

/** User settings that keep code-server's workbench quiet: no welcome page, tips, updates, telemetry, AI or git. */
export const QUIET_WORKBENCH_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.enableExperiments': false,
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'editor.minimap.enabled': false,
};

/** Debian's Chromium, headless, with nothing of its own going to the network. */
export function launchHeadlessChromium(tools: E2eTools): Promise<Browser> {
  return chromium.launch({
    executablePath: tools.chromium,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
