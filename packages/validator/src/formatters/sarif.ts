import { relative } from 'node:path';
import { ruleUrl, siteBaseUrl } from '@svc-manifest/schema';
import { RULES } from '../rules/index.js';
import type { FileReport, FormatOptions } from './types.js';

const LEVELS = { error: 'error', warning: 'warning', info: 'note' } as const;

/** SARIF 2.1.0 as GitHub code scanning accepts it: every rule described, repository-relative URIs. */
export function formatSarif(reports: readonly FileReport[], options: FormatOptions): string {
  const ruleIndex = new Map(RULES.map((rule, index) => [rule.id, index]));
  // A URI reference: each path segment percent-encoded (spaces, '#', '%', …).
  const uriOf = (report: FileReport) =>
    relative(options.repositoryRoot, report.absolutePath).split(/[\\/]/).map(encodeURIComponent).join('/');
  const unreadable = reports.filter((report) => report.readError !== undefined);
  const results = reports.flatMap((report) => {
    const uri = uriOf(report);
    return report.diagnostics.map((d) => ({
      ruleId: d.code,
      ...(ruleIndex.has(d.code) ? { ruleIndex: ruleIndex.get(d.code) } : {}),
      level: LEVELS[d.severity],
      message: { text: d.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
            region: {
              startLine: d.range.start.line,
              startColumn: d.range.start.column,
              endLine: d.range.end.line,
              endColumn: Math.max(
                d.range.end.column,
                d.range.end.line === d.range.start.line ? d.range.start.column + 1 : 1,
              ),
            },
          },
        },
      ],
      partialFingerprints: { primaryLocationLineHash: `${d.code}:${d.path}` },
    }));
  });
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'svc-manifest',
            version: options.toolVersion,
            // The site that serves the schemas and the rule pages (a placeholder host until it is deployed).
            informationUri: siteBaseUrl(),
            rules: RULES.map((rule) => ({
              id: rule.id,
              name: rule.id.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase()),
              shortDescription: { text: rule.description.replace(/`/g, "'") },
              fullDescription: {
                text: rule.spec
                  ? `${rule.description.replace(/`/g, "'")} Spec: ${rule.spec.replace(/`/g, "'")}`
                  : rule.description.replace(/`/g, "'"),
              },
              helpUri: ruleUrl(rule.id),
              defaultConfiguration: { level: LEVELS[rule.severity] },
              properties: { tags: [rule.kind] },
            })),
          },
        },
        // A file that could not be read is not a result (no rule found anything) but a failure of the run.
        invocations: [
          {
            executionSuccessful: unreadable.length === 0,
            toolExecutionNotifications: unreadable.map((report) => ({
              level: 'error',
              message: { text: `cannot read ${report.filePath}: ${report.readError}` },
              locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(report), uriBaseId: '%SRCROOT%' } } }],
            })),
          },
        ],
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileUri(options.repositoryRoot) } },
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}

function pathToFileUri(path: string): string {
  const normalized = path.split('\\').join('/').replace(/\/?$/, '/');
  return `file://${normalized.startsWith('/') ? '' : '/'}${encodeURI(normalized)}`;
}
