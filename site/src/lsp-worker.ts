// The playground's language server: the lsp package's own server, in this worker.
import { startWorkerServer } from '@svc-manifest/lsp/browser';

startWorkerServer();
