// One-off: writes docs/rules/<id>.md from RULES metadata plus the hand-written prose below.
// Output blocks are filled by `UPDATE_DOCS=1 npx vitest run packages/validator/test/rule-docs.test.ts`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '@svc-manifest/validator';
import { RULE_DOCS_DIR, refreshPage } from './rule-docs.js';

interface Page {
  /** A spec (or decision) quote when the rule's metadata has none. */
  spec?: string;
  why: string;
  examples: { lang: string; text: string; note?: string }[];
  fix: string;
}

const V2 = `svc_version: 2
default_agent: triage
agents:
  triage:
    connectors: [github]
`;

const pages: Record<string, Page> = {
  'agent-connector-declared': {
    spec: 'Version 2 agents: "`connectors_required` — array of non-empty strings; connector slugs that must resolve before the session starts". Recorded as a warning in docs/decisions.md ("Cross-reference checks").',
    why: 'An agent that lists a connector nobody declared gets no tool at run time: the name silently resolves to nothing, and with `connectors_required` the session refuses to start. The usual cause is a typo or a connector that was renamed or removed while agents still point at it.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: triage
agents:
  triage:
    connectors: [github, jira]
    connectors_required: [github]
connectors:
  - slug: github
    provider: mcp
    url: https://mcp.example.com/github
`,
      },
    ],
    fix: 'Declare the connector under `connectors` (with its `slug` and `provider`), or remove the name from the agent\'s list. If you meant an existing connector, correct the spelling to its exact `slug`.',
  },
  'alias-conflict': {
    spec: 'Trigger fields: "`session_mode` and `sessionMode` (`fresh`, `reuse`, `pinned`, `keyed`), `session_key`, `sessionKey`, `session_id`, `sessionId`" — two spellings of the same field; the schema accepts one of them.',
    why: 'The platform accepts both snake_case and camelCase spellings of some fields, but when both are present it is undefined which one wins, and they usually disagree. Reporting it keeps the manifest unambiguous.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
triggers:
  - slug: nightly-report
    type: cron
    cron: "0 2 * * *"
    session_mode: fresh
    sessionMode: reuse
    prompt: Summarise yesterday's incidents.
`,
      },
    ],
    fix: 'Keep one spelling and delete the other. Prefer the snake_case form (`session_mode`, `base_url`, `secret_env`, …) that the rest of the manifest uses.',
  },
  'alias-cycle': {
    spec: 'Validator limit (docs/decisions.md, "Limits are not manifest rules"): aliases are reported, never expanded blindly.',
    why: 'A YAML alias that points into the value holding it describes an infinite structure. Expanding it would never end; turning it into JSON is impossible. The validator detects the cycle before building the value and stops there, so the rest of the file is not checked.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
project: &project
  name: Billing
  parent: *project
`,
      },
    ],
    fix: 'Remove the alias that refers back to its own anchor (here `parent: *project`), or point it at a different, non-enclosing anchor. Manifests rarely need aliases at all; writing the value out is the clearest fix.',
  },
  'alias-expansion': {
    spec: 'Validator limit (docs/decisions.md): "alias expansion (200,000 values)" — an option (`limits.maxExpandedNodes`).',
    why: 'Each alias copies its anchor\'s value, so a few lines of nested aliases (the "billion laughs" attack) can describe a value with billions of nodes. The validator measures the expanded size before building anything and refuses past the limit, so a hostile file cannot exhaust the server\'s memory.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
`,
      },
    ],
    fix: 'Write values out instead of nesting aliases of aliases. A real manifest is a few hundred values; if yours legitimately needs more, raise `limits.maxExpandedNodes` in the caller.',
  },
  'byte-order-mark': {
    spec: 'docs/decisions.md, "Locations": "A leading byte-order mark is reported once (`byte-order-mark`, info) and is not counted in line 1\'s columns."',
    why: 'UTF-8 needs no byte-order mark, and some tools (shells reading a shebang, older YAML and TOML parsers, `diff`) treat it as content. The validator ignores it and keeps line 1\'s columns as if it were not there, but tells you it is present. The example uses `\\uFEFF` for the invisible mark.',
    examples: [
      {
        lang: 'yaml escapes',
        text: `\\uFEFFsvc_version: 1
project:
  name: Billing
`,
      },
    ],
    fix: 'Save the file as "UTF-8" rather than "UTF-8 with BOM" (in VS Code: the encoding button in the status bar, "Save with Encoding").',
  },
  'connector-channel-auth': {
    why: 'Channel connectors (chat and email platforms) are authorised by the platform\'s own channel connection, not by credentials in the manifest. Any other `auth.type` would be ignored at best, and suggests a secret is being configured in the wrong place.',
    examples: [
      {
        lang: 'toml',
        text: `svc_version = 2
default_agent = "support"

[agents.support]
connectors = ["svc_slack"]

[[connectors]]
slug = "svc_slack"
provider = "channel"
platform = "chat_a"
auth = { type = "bearer", token_env = "SLACK_TOKEN" }
`,
      },
    ],
    fix: 'Remove the `auth` table from the channel connector, or set `type` to `none`. Connect the channel in the platform instead.',
  },
  'connector-provider-fields': {
    why: 'Without its address a connector cannot be reached: an MCP connector needs the server `url`, a GraphQL connector its `endpoint`, an HTTP connector its `base_url`, a managed connector its `app`, a channel its `platform`. The platform would accept the manifest and fail only when an agent first uses the connector.',
    examples: [
      {
        lang: 'yaml',
        text: `${V2}connectors:
  - slug: github
    provider: mcp
    transport: sse
`,
      },
    ],
    fix: 'Add the field the provider needs (here `url: https://…`). If the connector is an HTTP API, `base_url` (or `baseUrl`) is the field; if it is a managed app, `app`.',
  },
  'connector-reserved-slug': {
    why: 'The slugs `svc_slack`, `svc_teams`, `svc_email` and `computer` are reserved by the platform for its built-in channel and computer connectors. Using one for another provider would shadow the built-in and confuse every agent that lists it.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: support
agents:
  support:
    connectors: [svc_slack]
connectors:
  - slug: svc_slack
    provider: http
    base_url: https://hooks.slack.example.com
`,
      },
    ],
    fix: 'Either make it the channel connector (`provider: channel` with a `platform`), or give your own connector a different slug (for example `slack-webhook`) and update the agents that list it.',
  },
  'default-agent-declared': {
    why: 'Sessions that do not name an agent run `default_agent`. If it names no declared agent, or a disabled one, those sessions cannot start. `setDefaultAgent` makes the same check, so the validator reports what the platform would refuse.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: assistant
agents:
  triage:
    connectors: none
  reviewer:
    enabled: false
`,
      },
    ],
    fix: 'Set `default_agent` to the key of an agent under `agents` that is not `enabled: false`, or declare the agent it names.',
  },
  'deprecated-key': {
    why: '`connectors_personal` still works as an input alias, but it is deprecated and will be removed in a later `svc_version`. Renaming now avoids a breaking change later; the meaning is identical.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: triage
agents:
  triage:
    connectors: [github]
    connectors_personal: [github]
connectors:
  - slug: github
    provider: mcp
    url: https://mcp.example.com/github
`,
      },
    ],
    fix: 'Rename `connectors_personal` to `connectors_required`; the value stays the same. The language server offers this as a quick fix.',
  },
  'duplicate-key': {
    spec: 'YAML 1.2 requires mapping keys to be unique; TOML forbids defining a key or table twice.',
    why: 'With a key written twice, most YAML tools silently keep the last value while others keep the first or refuse the file, so the manifest means different things to different readers. The validator keeps the first, reports the second, and points back at the first definition.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
project:
  name: Billing
  description: Invoices and payment runs.
  name: Billing v2
`,
      },
      {
        lang: 'toml',
        text: `svc_version = 1

[project]
name = "Billing"
name = "Billing v2"
`,
      },
    ],
    fix: 'Delete one of the two entries, keeping the value you mean. If both should exist, they need different keys.',
  },
  'duplicate-slug': {
    why: 'Triggers, connectors and templates are referred to by slug (and version 1 agents by name). Two entries with the same slug make every reference ambiguous and the platform keeps only one of them.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
triggers:
  - slug: nightly
    type: cron
    cron: "0 2 * * *"
    prompt: Summarise yesterday's incidents.
  - slug: nightly
    type: cron
    cron: "0 3 * * *"
    prompt: Rotate the on-call notes.
`,
      },
    ],
    fix: 'Give each entry its own slug (for example `nightly-incidents` and `nightly-oncall`) and update anything that refers to the old one.',
  },
  'forbidden-character': {
    spec: 'Validator limit (issue 3, "Limits for untrusted input"): "NUL and other control characters" are located diagnostics.',
    why: 'Control characters (NUL, bell, escape, C1 controls) and unpaired surrogates are invisible in most editors, can hide text from reviewers, and are rejected or mangled by YAML and TOML parsers. A manifest is plain text; the validator replaces them with spaces to keep checking the rest and reports the first one with a count. The example uses `\\u0007` for a bell character.',
    examples: [
      {
        lang: 'yaml escapes',
        text: `svc_version: 1
project:
  name: Bil\\u0007ling
  description: Invoices\\u0000 and payment runs.
`,
      },
    ],
    fix: 'Delete the character (put the cursor at the reported position; many editors show it as a box or `^G`). If the text was pasted from a terminal or a binary file, retype it.',
  },
  'forbidden-key': {
    spec: '"the keys `image`, `dockerfile`, `slug`, `cpu`, `memory`, `disk`, `entrypoint`, `context`, `context_dir`, `gpu` are forbidden directly under `sandbox`"; "`sandboxes` forbidden in both versions"; "`apps` is forbidden" (version 1); "the key `secret` is forbidden inside" `auth`.',
    why: 'These keys look plausible but belong elsewhere: template fields go inside a template under `sandbox.templates`, `apps` only exists in version 2, and secrets never go in the manifest (it is committed to git). The platform would ignore or reject them.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
sandbox:
  default: python
  image: python:3.12-slim
  templates:
    - slug: python
      image: python:3.12-slim
`,
      },
    ],
    fix: 'Move template fields into a template under `sandbox.templates`; move secrets to the platform\'s secret store and refer to them by environment variable name; remove `apps` from a version 1 manifest or move to `svc_version: 2`.',
  },
  'invalid-format': {
    spec: '`secret_env`, `secretEnv`: "uppercase letters, digits, underscore, not starting with a digit"; `interval` and `expect_event_within`: "positive integer followed by `s`, `m`, `h` or `d`"; slugs match `[a-z0-9][a-z0-9_-]{0,127}`.',
    why: 'These strings are used as identifiers by the platform: environment variable names, slugs in URLs, durations parsed by the scheduler. A value in the wrong form would be rejected when the trigger or connector is created, long after the manifest was merged.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
triggers:
  - slug: deploy-hook
    type: webhook
    secret_env: deploy-hook-secret
    prompt: A deployment finished; check its health.
  - slug: disk-watch
    type: monitor
    run: df -h /data
    mode: poll
    interval: 5 minutes
    prompt: The data disk is filling up.
`,
      },
    ],
    fix: 'Rewrite the value in the form the message names: `DEPLOY_HOOK_SECRET` for a variable name, `5m` for a duration, lowercase letters, digits, `-` and `_` for a slug.',
  },
  'invalid-key-name': {
    spec: 'Version 2: "`agents` is a map with at least one entry; keys match the slug pattern"; `apps` "is a map keyed by slug-pattern names"; header names are "1 to 128 characters from the HTTP token character set".',
    why: 'Agent and app names are slugs: they appear in URLs, CLI arguments and references such as `default_agent`. A name with capitals, spaces or punctuation cannot be addressed.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: Triage Bot
agents:
  Triage Bot:
    connectors: none
`,
      },
    ],
    fix: 'Rename the key to a slug (lowercase letters, digits, `-`, `_`, starting with a letter or digit), e.g. `triage-bot`, and update every reference to it (`default_agent`, trigger `agent`).',
  },
  'invalid-key': {
    spec: 'The manifest is JSON-like: every mapping key is a string (docs/decisions.md, "Reading the spec").',
    why: 'YAML allows collections, aliases or nothing as mapping keys (`? [a, b]`, `[name, description]: …`, `: value`); JSON, TOML and the platform do not. Such an entry has no name the schema could check, so it is reported and left out.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
project:
  [name, description]: Billing
`,
      },
    ],
    fix: 'Write one plain key per entry (`name: Billing`). If the brackets were meant as text, quote the key.',
  },
  'invalid-length': {
    spec: '`prompt`, `prompt_template` "(non-empty)"; `run` "(non-empty, at most 1024 characters)"; `headers` "at most 32 entries"; version 2 `agents` "is a map with at least one entry".',
    why: 'Empty values would create a trigger with nothing to say or an agent list with nobody in it; over-long values are refused by the platform API. The message names the bound so the fix is obvious.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
triggers:
  - slug: standup
    type: cron
    cron: "0 9 * * 1-5"
    prompt: ""
`,
      },
    ],
    fix: 'Fill in the empty value (or remove the key if it is optional), shorten the long one, or split a long `run` command into a script the sandbox runs.',
  },
  'invalid-utf8': {
    spec: 'Validator limit (issue 3): "invalid UTF-8" is a located diagnostic, never a crash.',
    why: 'Manifests are UTF-8. Bytes that are not (typically a file saved as Latin-1 or Windows-1252, or a binary file named `svc.yaml`) would be decoded differently by every tool. The validator decodes what it can and points at the first bad byte. The example writes the byte as `\\xE9`, "é" in Latin-1.',
    examples: [
      {
        lang: 'yaml escapes',
        text: `svc_version: 1
project:
  name: Caf\\xE9 orders
`,
      },
    ],
    fix: 'Re-save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 svc.yaml > svc.utf8.yaml`), or, in an editor, "Reopen with Encoding" Latin-1 then "Save with Encoding" UTF-8.',
  },
  'invalid-value': {
    spec: 'Trigger fields: "`type` (required: `cron`, `webhook`, `monitor`)"; `mode` "(`poll`, `stream`)"; app `port` "integer 1 to 65535, not 7331 and not 8080"; `svc_cli` names "limited to the permission list".',
    why: 'These fields take one of a fixed set of values. Anything else is rejected when the platform creates the resource. The message lists what is allowed and suggests the closest one when the value looks like a typo.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
triggers:
  - slug: nightly
    type: crn
    cron: "0 2 * * *"
    prompt: Summarise yesterday's incidents.
`,
      },
    ],
    fix: 'Use one of the listed values (here `cron`). For `svc_cli`, use a permission name from the spec\'s list, `*`, `all` or `none`.',
  },
  'missing-key': {
    spec: 'Version 2 shape: "required keys `svc_version`, `default_agent` (non-empty string), `agents`"; Trigger fields: "`slug` (required, slug pattern), `type` (required …)".',
    why: 'Without a required key the platform cannot create the object: a trigger without `slug` cannot be addressed, a version 2 manifest without `default_agent` has no agent for new sessions. The diagnostic is placed at the key holding the incomplete object (or its first line for a list item).',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: triage
agents:
  triage:
    connectors: none
triggers:
  - type: cron
    cron: "0 2 * * *"
    prompt: Summarise yesterday's incidents.
`,
      },
    ],
    fix: 'Add the key named in the message (here a `slug: nightly-summary` line in the trigger).',
  },
  'multiple-documents': {
    spec: 'A manifest is one document: `svc.yaml` holds one mapping starting with `svc_version`.',
    why: 'A `---` line starts a second YAML document. The platform reads only one manifest per file, so whatever follows the marker would be silently ignored; usually two files were concatenated or a Kubernetes habit crept in.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
project:
  name: Billing
---
svc_version: 1
project:
  name: Payments
`,
      },
    ],
    fix: 'Keep one document: merge the keys you need into the first one and delete the `---` line and the second document (or move it to its own file in another project).',
  },
  'not-a-mapping': {
    spec: '"Top-level key `svc_version` (integer, 1 or 2) is required and selects the shape" — so the top level is a mapping.',
    why: 'Every manifest is a mapping of keys starting with `svc_version`. An empty file, a list or a single value cannot be a manifest; nothing else can be checked until the top level is a mapping.',
    examples: [
      {
        lang: 'yaml',
        text: `- svc_version: 2
  default_agent: triage
`,
      },
    ],
    fix: 'Make the top level a mapping: remove the leading `- ` (and un-indent the rest), or, for an empty file, start with `svc_version: 2`.',
  },
  'out-of-range': {
    spec: 'Apps: "`idle_timeout_seconds` integer 120 to 86400", "`port` integer 1 to 65535", "`resources.cpu` integer 1 to 64", "`resources.memory_gb` integer 1 to 512"; templates: "`cpu`, `memory`, `disk` integers of at least 1".',
    why: 'Numbers outside these bounds are refused by the platform when it provisions the app or sandbox (and a zero-CPU template could never start). The message states the bound.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: triage
agents:
  triage:
    connectors: none
apps:
  dashboard:
    type: static
    path: web/dist
    idle_timeout_seconds: 60
    resources:
      cpu: 128
`,
      },
    ],
    fix: 'Choose a value inside the stated bounds (here at least 120 seconds, and at most 64 CPUs).',
  },
  'possible-typo': {
    spec: '"additional keys are allowed at the top level and inside `project`, `env`, `agent_runtime`, `sandbox`, triggers and connectors" — so a misspelt key there is not an error, only suspicious.',
    why: 'Where the schema allows extra keys, a misspelling such as `trigers` is valid but does nothing: the triggers are silently never created. The warning appears only when an unknown key is close to a known one.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
trigers:
  - slug: nightly
    type: cron
    cron: "0 2 * * *"
    prompt: Summarise yesterday's incidents.
`,
      },
    ],
    fix: 'Rename the key to the suggested one. If the extra key is intentional (a note for your own tooling), give it a name that is not close to a manifest key, e.g. with an `x_` prefix.',
  },
  'sandbox-template-declared': {
    why: 'Sessions start in the sandbox template named by `sandbox.default` or by the agent\'s `sandbox`. A name that matches no template in `sandbox.templates` leaves the platform without an image to start.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: triage
agents:
  triage:
    sandbox: node-tools
sandbox:
  default: python
  templates:
    - slug: python-tools
      image: python:3.12-slim
`,
      },
    ],
    fix: 'Use the `slug` of a declared template, or add a template with that slug under `sandbox.templates`.',
  },
  'svc-version-format': {
    why: 'The value `2.0` is read as the number 2, so the manifest works, but it reads like a semantic version and suggests that `2.1` would exist. Writing the integer keeps the file unambiguous for other tools (TOML, for one, keeps `2.0` a float).',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2.0
default_agent: triage
agents:
  triage:
    connectors: none
`,
      },
    ],
    fix: 'Write `svc_version: 2` (or `1`).',
  },
  'svc-version': {
    spec: '"Top-level key `svc_version` (integer, 1 or 2) is required and selects the shape."',
    why: 'The version decides which schema applies: version 1 and version 2 differ in `agents` (a list versus a map), in required keys and in what `credential` may be. Without a valid version nothing else can be checked, so this is the only error reported until it is fixed.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: "2"
default_agent: triage
agents:
  triage:
    connectors: none
`,
      },
      {
        lang: 'toml',
        text: `[project]
name = "Billing"
`,
      },
    ],
    fix: 'Add `svc_version: 2` (or `1` for the legacy shape) as the first key, written as a number without quotes. The language server offers the fix.',
  },
  'template-image-or-dockerfile': {
    why: 'A template is built from either a ready image or a Dockerfile in the repository. With both the platform cannot tell which you mean; with neither it has nothing to start.',
    examples: [
      {
        lang: 'toml',
        text: `svc_version = 2
default_agent = "triage"

[agents.triage]
sandbox = "python"

[sandbox]
default = "python"

[[sandbox.templates]]
slug = "python"
image = "python:3.12-slim"
dockerfile = "sandbox/Dockerfile"
`,
      },
    ],
    fix: 'Keep exactly one: delete `image` to build from the Dockerfile, or delete `dockerfile` to use the published image.',
  },
  'toml-syntax': {
    spec: 'TOML 1.0: the file must parse; a key or table may be defined only once.',
    why: 'A TOML file that does not parse has no value to check. TOML parsers stop at the first error, so the validator reports that one, located, and nothing else; fix it and re-run to see what follows.',
    examples: [
      {
        lang: 'toml',
        text: `svc_version = 1

[project
name = "Billing"
`,
      },
    ],
    fix: 'Correct the syntax at the reported position (here close the table header: `[project]`). Strings need quotes in TOML, unlike YAML.',
  },
  'too-deep': {
    spec: 'Validator limit (docs/decisions.md): "nesting depth (64, measured on the raw text before any parser runs)"; the option `limits.maxDepth`.',
    why: 'Deeply nested input (`[[[[…` thousands deep) can exhaust the parser\'s stack; with the `yaml` package it can abort the whole process. The depth is measured on the raw text before any parser runs, so the file is refused without being parsed. No real manifest nests more than about six levels.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
project:
  name: ${'['.repeat(65)}${']'.repeat(65)}
`,
      },
    ],
    fix: 'Remove the nesting; if the file was generated, fix the generator. A caller that has a real need can raise `limits.maxDepth`.',
  },
  'too-large': {
    spec: 'Validator limit (docs/decisions.md): "Size (1 MiB)"; the option `limits.maxBytes` and the CLI flag `--max-bytes`. The example sets `maxBytes=64` so it stays short.',
    why: 'A manifest is a few kilobytes. Refusing anything above the limit before parsing keeps a server that validates untrusted uploads safe from memory and CPU exhaustion; the CLI does not even read past the limit.',
    examples: [
      {
        lang: 'yaml maxBytes=64',
        text: `svc_version: 1
project:
  name: Billing
  description: Invoices, payment runs and dunning letters.
`,
      },
    ],
    fix: 'Keep the manifest small: move long prompts into files the agent reads, remove generated content. If the limit is too strict for your deployment, raise `--max-bytes` / `limits.maxBytes`.',
  },
  'too-many-aliases': {
    spec: 'Validator limit (docs/decisions.md): "alias count (100)"; the option `limits.maxAliases`. The example sets `maxAliases=2` so it stays short.',
    why: 'Aliases are the building block of alias bombs, and a manifest rarely needs more than a handful. Capping their number bounds the work needed to check a file before any expansion.',
    examples: [
      {
        lang: 'yaml maxAliases=2',
        text: `svc_version: 1
x_prompt: &prompt Summarise yesterday's incidents.
triggers:
  - slug: eu
    type: cron
    cron: "0 2 * * *"
    prompt: *prompt
  - slug: us
    type: cron
    cron: "0 8 * * *"
    prompt: *prompt
  - slug: apac
    type: cron
    cron: "0 18 * * *"
    prompt: *prompt
`,
      },
    ],
    fix: 'Write the repeated values out instead of aliasing them. If you generate manifests, let the generator expand them.',
  },
  'trigger-agent-declared': {
    why: 'A trigger runs the agent it names. If no agent of that name is declared, the trigger fires into nothing (or into the default agent, which is rarely what was meant). The check is skipped when the manifest declares no agents at all, as a version 1 manifest may rely on the platform\'s default agent.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: triage
agents:
  triage:
    connectors: none
triggers:
  - slug: nightly
    type: cron
    cron: "0 2 * * *"
    agent: reporter
    prompt: Summarise yesterday's incidents.
`,
      },
    ],
    fix: 'Name a declared agent in `agent` (or `agent_name`), or declare the agent under `agents`.',
  },
  'trigger-cron-schedule': {
    why: 'A `cron` trigger with no schedule never fires. The platform would create it and it would sit there silently.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
triggers:
  - slug: nightly
    type: cron
    timezone: Europe/Berlin
    prompt: Summarise yesterday's incidents.
`,
      },
    ],
    fix: 'Add `cron: "0 2 * * *"` (a cron expression), `schedule`, or a one-off `run_at` time.',
  },
  'trigger-monitor-fields': {
    why: 'A monitor runs a command (`run`) either polling it or streaming its output (`mode`); without them there is nothing to watch. Schedule and webhook keys make no sense on a monitor and are refused so that a trigger whose `type` was changed does not keep stale settings.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
triggers:
  - slug: disk-watch
    type: monitor
    run: df -h /data
    cron: "*/5 * * * *"
    prompt: The data disk is filling up.
`,
      },
    ],
    fix: 'Add the missing `run` or `mode` (`poll` with an `interval`, or `stream`) and delete `cron`, `schedule`, `run_at`, `timezone` and `secret_env` from the monitor. If you wanted a schedule, make it a `cron` trigger.',
  },
  'trigger-monitor-interval': {
    why: 'A polling monitor needs to know how often to run its command; a streaming monitor reads the command\'s output continuously, so an interval would be meaningless and suggests the mode is wrong.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
triggers:
  - slug: disk-watch
    type: monitor
    run: df -h /data
    mode: poll
    prompt: The data disk is filling up.
  - slug: audit-stream
    type: monitor
    run: tail -f /var/log/audit.log
    mode: stream
    interval: 1m
    prompt: Check this audit event.
`,
      },
    ],
    fix: 'For `mode: poll` add `interval` (e.g. `5m`); for `mode: stream` remove `interval`.',
  },
  'trigger-prompt-required': {
    why: 'A trigger starts an agent session, and the prompt is what the agent is asked to do. Without `prompt` or `prompt_template` the session would start with no instruction.',
    examples: [
      {
        lang: 'toml',
        text: `svc_version = 1

[[triggers]]
slug = "nightly"
type = "cron"
cron = "0 2 * * *"
`,
      },
    ],
    fix: 'Add a `prompt` (fixed text) or a `prompt_template` (text with `{{placeholders}}` filled from the event).',
  },
  'trigger-webhook-secret': {
    why: 'Webhook calls are authenticated with an HMAC secret; the trigger names the environment variable that holds it. Without one, anybody who learns the URL could start sessions.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
triggers:
  - slug: deploy-hook
    type: webhook
    prompt: A deployment finished; check its health.
`,
      },
    ],
    fix: 'Add `secret_env: DEPLOY_HOOK_SECRET` (an uppercase variable name) and set that secret in the project.',
  },
  'unknown-key': {
    spec: 'Version 2 agents: "each value allows only these keys (no others)".',
    why: 'In objects that allow only their own keys (version 2 agents, templates, policies, channels…) an unknown key is almost always a typo or a key from another place, and the platform rejects it. The message suggests the closest allowed key when there is one, and is placed on the key itself.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: triage
agents:
  triage:
    conectors: [github]
    model: large
connectors:
  - slug: github
    provider: mcp
    url: https://mcp.example.com/github
`,
      },
    ],
    fix: 'Rename the key to the suggested one, or delete it if it belongs elsewhere. The language server offers the rename as a quick fix.',
  },
  'unsafe-key': {
    spec: 'docs/decisions.md, 15: "Keys `__proto__`, `constructor`, `prototype` are refused everywhere (`unsafe-key`), and the published schema refuses them too".',
    why: 'Copied into a JavaScript object, these keys reach the object\'s prototype, a classic route to prototype pollution in every service that reads the manifest. No manifest needs them, so they are refused everywhere and left out of the value.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
project:
  name: Billing
  __proto__:
    isAdmin: true
`,
      },
    ],
    fix: 'Delete the key. If it was meant as data, choose another name.',
  },
  'version-specific-key': {
    spec: 'docs/decisions.md, 16: "`channels` in version 2 and `default_agent`/`runtime` in version 1 are valid but have no effect; we warn".',
    why: 'Top-level extra keys are allowed, so a key that belongs to the other version is not an error, but it does nothing. It usually means a manifest was half-migrated between versions.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 2
default_agent: support
agents:
  support:
    connectors: none
channels:
  - platform: chat_a
`,
      },
    ],
    fix: 'Remove the key, or express it the way this version does (in version 2, channels are connectors with `provider: channel`). For `default_agent` in version 1, move to `svc_version: 2`.',
  },
  'wrong-type': {
    spec: '`env` is "`{ required: string[], optional: string[] }`"; template "`cpu`, `memory`, `disk` integers"; trigger "`enabled` (boolean, number, or one of the strings true/false/1/0/yes/no/on/off in any letter case)".',
    why: 'A value of the wrong kind (a list where a map belongs, quoted text where a number belongs, an empty `key:`) cannot be read by the platform. One message per value says what was expected and what was found, instead of a cascade of schema errors.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
env: [DATABASE_URL]
sandbox:
  default: python
  templates:
    - slug: python
      image: python:3.12-slim
      cpu: "2"
`,
      },
    ],
    fix: 'Write the value in the expected form: here `env:` with a `required: [DATABASE_URL]` list, and `cpu: 2` without quotes.',
  },
  'yaml-syntax': {
    spec: 'YAML 1.2: the file must parse.',
    why: 'A YAML syntax error (a tab in the indentation, an unclosed quote or bracket, a bad indent) makes the rest of the file ambiguous. The validator reports each error the `yaml` parser finds, located, and still checks what it could read, but the error must be fixed first.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
project:
  name: "Billing
  description: Invoices and payment runs.
`,
      },
    ],
    fix: 'Correct the syntax at the reported position: close the quote or bracket, indent with spaces only, align sibling keys.',
  },
  'yaml-warning': {
    spec: 'YAML 1.2: unknown tags and directives are allowed but not understood.',
    why: 'A custom tag such as `!secret` or `!include` means something only to the tool that defined it; the platform reads the plain value and ignores the tag, so the manifest does not do what the tag suggests.',
    examples: [
      {
        lang: 'yaml',
        text: `svc_version: 1
project:
  name: Billing
  description: !include description.md
`,
      },
    ],
    fix: 'Remove the tag and write the value itself. The manifest has no include or secret mechanism: reference secrets by environment variable name (`secret_env`).',
  },
};

const missing = RULES.filter((rule) => !pages[rule.id]).map((rule) => rule.id);
if (missing.length) throw new Error(`no prose for ${missing.join(', ')}`);

for (const rule of RULES) {
  const page = pages[rule.id]!;
  const spec = rule.spec ?? page.spec;
  const lines = [
    `# ${rule.id}`,
    '',
    rule.description,
    '',
    '| severity | kind |',
    '|---|---|',
    `| ${rule.severity} | ${rule.kind} |`,
    '',
    '## Spec',
    '',
    spec ? `> ${spec}` : '> The spec has no sentence for this rule; see docs/decisions.md.',
    '',
    '## Why it matters',
    '',
    page.why,
    '',
    '## Example',
    '',
  ];
  for (const example of page.examples) {
    lines.push('```' + example.lang, example.text.replace(/\n$/, ''), '```', '', '```text', '```', '');
  }
  lines.push('## How to fix', '', page.fix, '');
  writeFileSync(join(RULE_DOCS_DIR, `${rule.id}.md`), refreshPage(lines.join('\n')));
}
console.log(`wrote ${RULES.length} pages`);

const readme = [
  '# Manifest rules',
  '',
  'Every diagnostic the validator reports has a stable `code`: the id of one of these rules. Each',
  'page says what the rule checks, the spec sentence behind it, why it matters, an example with the',
  'exact output of the validator, and how to fix it.',
  '',
  'Kinds: **parse** — found while reading the text (syntax, limits for untrusted input);',
  '**structure** — a JSON Schema keyword failed; **schema** — a cross-field rule the published schema',
  'expresses (`x-svc-rule`); **reference** — a cross-reference check in code; **style** — advice.',
  'Warnings and info never make a manifest invalid.',
  '',
  '| rule | severity | kind | description |',
  '|---|---|---|---|',
  ...RULES.map((rule) => `| [${rule.id}](${rule.id}.md) | ${rule.severity} | ${rule.kind} | ${rule.description.replace(/\|/g, '\\|')} |`),
  '',
  '## The examples are tested',
  '',
  '`packages/validator/test/rule-docs.test.ts` re-runs every page\'s example through',
  '`validateManifest` and compares the output block line by line',
  '(`line:col-endLine:endCol severity code | message`), so a page cannot go stale. After changing a',
  'rule or its messages, refresh the output blocks and review the diff:',
  '',
  '```sh',
  'UPDATE_DOCS=1 npx vitest run packages/validator/test/rule-docs.test.ts',
  '```',
  '',
  'An example\'s language (`yaml` or `toml`) picks the parser. Words after it: `escapes` turns `\\xNN`',
  'into a raw byte and `\\uNNNN` into a character before validating (for byte-order marks, control',
  'characters and invalid UTF-8); `maxBytes=N`, `maxDepth=N`, `maxAliases=N` and',
  '`maxExpandedNodes=N` set validator limits so the example stays short.',
  '',
  'To add a rule: write `packages/validator/src/rules/<id>.ts`, list it in `src/rules/index.ts`, add',
  'fixtures under `fixtures/<id>/`, and add `docs/rules/<id>.md` with the sections above (empty',
  '` ```text ` block, then `UPDATE_DOCS=1`).',
  '',
];
writeFileSync(join(RULE_DOCS_DIR, 'README.md'), readme.join('\n'));
