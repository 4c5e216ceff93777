/**
 * The published schemas in the shape other editors' servers read (yaml-language-server, Taplo),
 * made from the source's shape by rewrites that never change a verdict (test/editor-shape.test.ts
 * runs every fixture through ajv and python-jsonschema with both shapes):
 *
 * - An object's cross-field rules (its `allOf`) move out of its definition to every `$ref` to it,
 *   which becomes `allOf: [{ $ref }, ...rules]`: Taplo offers no key of a schema that carries
 *   `allOf` beside `properties`. An `allOf` of the object and its rules is the same constraint.
 * - A `$ref` with annotations beside it becomes a copy of the definition it names, with those
 *   annotations over the definition's: Taplo ignores a `$ref`'s siblings (draft-07 says to) and
 *   shows the referenced schema's text instead of the key's own. Only annotations may be siblings
 *   (checked), so the copy validates exactly what the `$ref` did.
 * - An `allOf` is merged into its schema when no validation keyword appears twice (Taplo 0.8
 *   overflows its stack on `port`'s `allOf` beside `type: integer` and on a template's `slug`).
 * - Every `if` that tests keys also requires an object: an empty list item (`- `, a null) matches
 *   an `if` of only `properties`/`required`, and yaml-language-server then offers the `then`
 *   branch's keys (eight "a monitor trigger does not take …" on a new trigger). Every `then` here
 *   constrains objects only, so for a non-object both shapes accept.
 * - From our annotations: `deprecationMessage` (`x-svc-deprecated`), `errorMessage` (`x-svc-message`
 *   where yaml-language-server shows it for every way the subschema fails), and `x-taplo` (hidden
 *   keys, per-value docs, initial keys, links to rule pages).
 */
type SchemaObject = { [keyword: string]: unknown };

/** Keywords a `$ref` may carry beside it: annotations only (draft-07 ignores them when validating). */
const ANNOTATIONS = new Set([
  'description',
  'markdownDescription',
  'title',
  'examples',
  'default',
  'doNotSuggest',
  'deprecationMessage',
  'errorMessage',
  'defaultSnippets',
  'x-taplo',
  'x-svc-deprecated',
  'x-svc-forbidden',
  'x-svc-message',
]);

const isObject = (value: unknown): value is SchemaObject =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

export interface EditorShapeOptions {
  /** A rule's documentation page, for Taplo's links (`x-taplo.links.key`). */
  ruleUrl(ruleId: string): string;
}

/** The editor shape of a whole published schema (root and `definitions`). Pure: the input is not changed. */
export function editorShape(schema: SchemaObject, options: EditorShapeOptions): SchemaObject {
  const definitions = { ...((schema.definitions ?? {}) as Record<string, SchemaObject>) };
  /** The rules taken out of each definition, to go beside every `$ref` to it. */
  const rulesOf = new Map<string, unknown[]>();
  for (const [name, definition] of Object.entries(definitions)) {
    if (!isObject(definition.properties) || !Array.isArray(definition.allOf)) continue;
    const { allOf, ...shape } = definition;
    definitions[name] = withRuleLinks(shape, allOf as unknown[], options);
    rulesOf.set(name, allOf as unknown[]);
  }
  /**
   * `{ …, allOf: [a, b] }` as one schema `{ …, …a, …b }` when no validation keyword appears twice
   * (the same constraints; a `$ref` member stands for a copy of its definition, whose annotations
   * give way to the schema's own): Taplo 0.8 overflows its stack on an `allOf` beside `type`
   * (`port`) or of a `$ref` and a `not` (a template's `slug`).
   */
  const flattenedAllOf = (schema: SchemaObject): SchemaObject => {
    if (!Array.isArray(schema.allOf) || 'properties' in schema) return schema;
    const { allOf, ...merged } = schema;
    const seen = new Set(Object.keys(merged).filter((keyword) => !ANNOTATIONS.has(keyword)));
    const annotations: SchemaObject = {};
    for (const member of allOf as unknown[]) {
      if (!isObject(member)) return schema;
      let content = member;
      if (typeof member.$ref === 'string') {
        const target = member.$ref.slice('#/definitions/'.length);
        if (Object.keys(member).length !== 1 || rulesOf.has(target) || !definitions[target]) return schema;
        content = definitions[target];
      }
      for (const [keyword, value] of Object.entries(content)) {
        if (ANNOTATIONS.has(keyword)) annotations[keyword] ??= value;
        else if (seen.has(keyword)) return schema;
        else {
          seen.add(keyword);
          merged[keyword] = value;
        }
      }
    }
    return { ...annotations, ...merged };
  };
  const rewrite = (node: unknown, key?: string): unknown => {
    if (Array.isArray(node)) return node.map((item) => rewrite(item));
    if (!isObject(node)) return node;
    let out: SchemaObject = {};
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === 'properties' || keyword === 'definitions') {
        out[keyword] = Object.fromEntries(
          Object.entries(value as SchemaObject).map(([name, member]) => [name, rewrite(member, name)]),
        );
      } else if (keyword === 'if') {
        out[keyword] = objectCondition(value);
      } else if (
        keyword === 'defaultSnippets' ||
        keyword === 'examples' ||
        keyword === 'default' ||
        keyword === 'const' ||
        keyword === 'enum'
      ) {
        out[keyword] = value; // values, not schemas
      } else out[keyword] = rewrite(value);
    }
    out = withHints(flattenedAllOf(out), key);
    const ref = out.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/definitions/')) return out;
    const target = ref.slice('#/definitions/'.length);
    const { $ref: _ref, ...siblings } = out;
    const extra = Object.keys(siblings).filter((keyword) => !ANNOTATIONS.has(keyword));
    if (extra.length)
      throw new Error(`a $ref to ${ref} has sibling keywords that are not annotations: ${extra.join(', ')}`);
    const rules = rulesOf.get(target);
    if (rules) return { ...siblings, allOf: [{ $ref: ref }, ...(rewrite(rules) as unknown[])] };
    if (!Object.keys(siblings).length) return out;
    // A copy of the target with the key's own annotations over its own. (Not `allOf: [{ $ref }]`:
    // Taplo 0.8 overflows its stack on that shape.)
    const definition = definitions[target];
    if (!definition) throw new Error(`$ref to a missing definition: ${ref}`);
    return rewrite({ ...definition, ...siblings }, key);
  };
  return rewrite({ ...schema, definitions }) as SchemaObject;
}

/** `if` tests an object: add `type: object` where the condition names keys. */
function objectCondition(condition: unknown): unknown {
  if (!isObject(condition) || 'type' in condition) return condition;
  if (!('properties' in condition) && !('required' in condition)) return condition;
  return { type: 'object', ...condition };
}

/** The hints derived from our annotations, on one schema (`key`: the property name it describes, if any). */
function withHints(schema: SchemaObject, key: string | undefined): SchemaObject {
  const out: SchemaObject = { ...schema };
  const taplo: SchemaObject = { ...((out['x-taplo'] as SchemaObject | undefined) ?? {}) };
  if (typeof out['x-svc-deprecated'] === 'string') {
    out.deprecationMessage ??= `'${key ?? 'this key'}' is deprecated: use '${out['x-svc-deprecated']}' instead`;
    taplo.hidden = true;
  }
  if (out.doNotSuggest === true) taplo.hidden = true;
  const message = out['x-svc-message'];
  if (typeof message === 'string' && !('errorMessage' in out)) {
    // yaml-language-server never words a failed `not` with errorMessage; a failed `anyOf` is worded by
    // the branch that came closest, so each branch carries the message (every branch's failure is the
    // one the message describes).
    if (Array.isArray(out.anyOf)) {
      out.anyOf = (out.anyOf as unknown[]).map((branch) =>
        isObject(branch) && !('errorMessage' in branch) ? { ...branch, errorMessage: message } : branch,
      );
    } else if (!('not' in out)) out.errorMessage = message;
  }
  if (Array.isArray(out.markdownEnumDescriptions)) {
    taplo.docs = { ...(isObject(taplo.docs) ? taplo.docs : {}), enumValues: out.markdownEnumDescriptions };
  }
  if (Array.isArray(out.required) && isObject(out.properties) && out.type === 'object') taplo.initKeys = out.required;
  const closedMessage = closedObjectMessage(out);
  if (closedMessage && !('errorMessage' in out)) out.errorMessage = closedMessage;
  if (Object.keys(taplo).length) out['x-taplo'] = taplo;
  return out;
}

/**
 * What to say when a closed object (`additionalProperties: false`) fails, in place of "Property x is
 * not allowed.": the keys it takes. Only for an object without `required`, whose failures are then
 * an unknown key or not being a map at all, both of which the message words.
 */
function closedObjectMessage(schema: SchemaObject): string | undefined {
  if (
    schema.additionalProperties !== false ||
    'required' in schema ||
    !isObject(schema.properties) ||
    typeof schema.title !== 'string'
  )
    return undefined;
  const offered = Object.entries(schema.properties)
    .filter(([, property]) => isObject(property) && property.doNotSuggest !== true && !('x-svc-deprecated' in property))
    .map(([name]) => name);
  const noun = schema.title.toLowerCase();
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun} is a map of these keys only: ${offered.join(', ')}`;
}

/** Every key a rule demands or forbids (its `required` and `properties`, not its `if`'s), with the rule's id. */
function ruleKeys(rules: unknown[]): Map<string, string> {
  const keys = new Map<string, string>();
  const visit = (node: unknown, rule: string): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, rule));
    if (!isObject(node)) return;
    if (Array.isArray(node.required))
      for (const name of node.required) if (typeof name === 'string' && !keys.has(name)) keys.set(name, rule);
    if (isObject(node.properties))
      for (const name of Object.keys(node.properties)) if (!keys.has(name)) keys.set(name, rule);
    for (const keyword of ['allOf', 'anyOf', 'not', 'then']) if (keyword in node) visit(node[keyword], rule);
  };
  for (const rule of rules)
    if (isObject(rule) && typeof rule['x-svc-rule'] === 'string') visit(rule, rule['x-svc-rule']);
  return keys;
}

/** An object's properties, each key a rule names linked (for Taplo) to that rule's page. */
function withRuleLinks(shape: SchemaObject, rules: unknown[], options: EditorShapeOptions): SchemaObject {
  const keys = ruleKeys(rules);
  const properties = Object.fromEntries(
    Object.entries(shape.properties as SchemaObject).map(([name, property]) => {
      const rule = keys.get(name);
      if (!rule || !isObject(property)) return [name, property];
      const taplo = (property['x-taplo'] as SchemaObject | undefined) ?? {};
      return [name, { ...property, 'x-taplo': { ...taplo, links: { key: options.ruleUrl(rule) } } }];
    }),
  );
  return { ...shape, properties };
}
