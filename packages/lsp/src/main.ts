/**
 * `svc-manifest-lsp` as a program: the VS Code extension bundles this file as its server. The
 * package's own bin (launcher/svc-manifest-lsp.cjs) calls {@link runLanguageServer} from the bundled library.
 */
import { runLanguageServer } from './command.js';

runLanguageServer(process.argv.slice(2));
