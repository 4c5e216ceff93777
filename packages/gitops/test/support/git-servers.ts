/**
 * Real git servers for the remote tests, started in the test process: smart HTTP
 * (`git http-backend` as a CGI behind a Node HTTP server, optionally with Basic auth),
 * `git daemon`, and a TCP server that accepts connections and never answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface RunningServer {
  port: number;
  stop(): Promise<void>;
}

/** Serves the bare repositories under `root` over smart HTTP; with `auth`, only to that user and password. */
export async function startHttpGitServer(
  root: string,
  auth?: { user: string; password: string },
): Promise<RunningServer & { requests: string[] }> {
  const requests: string[] = [];
  const expected = auth ? `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` : null;
  const server: HttpServer = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${req.method} ${url.pathname}`);
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
      res.end('authentication required\n');
      return;
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_ADDR: '127.0.0.1',
      // http-backend allows pushes only from an authenticated user.
      REMOTE_USER: auth?.user ?? 'tester',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
    };
    if (req.headers['content-length']) env.CONTENT_LENGTH = String(req.headers['content-length']);
    const cgi = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.indexOf('\n\n');
      if (end < 0) return;
      const sep = head.indexOf('\r\n\r\n') >= 0 ? 4 : 2;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + sep));
    });
    cgi.stderr.resume();
    cgi.on('close', () => {
      if (!headersDone) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `git daemon` serving `root` on 127.0.0.1, pushes enabled. */
export async function startGitDaemon(root: string): Promise<RunningServer> {
  const port = await closedPort();
  const daemon: ChildProcess = spawn(
    'git',
    [
      'daemon',
      '--reuseaddr',
      '--export-all',
      '--enable=receive-pack',
      `--base-path=${root}`,
      '--listen=127.0.0.1',
      `--port=${port}`,
      root,
    ],
    { stdio: 'ignore', detached: true },
  );
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    if (await canConnect(port)) break;
    if (daemon.exitCode !== null || i > 200) throw new Error(`git daemon did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    port,
    stop: async () => {
      try {
        // The daemon and the per-connection children it forked: its own process group.
        process.kill(-daemon.pid!, 'SIGTERM');
      } catch {
        /* already gone */
      }
      await exited;
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Accepts connections and never says a word: a remote that hangs. */
export async function startSilentServer(): Promise<RunningServer> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
