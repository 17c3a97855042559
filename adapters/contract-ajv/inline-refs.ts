import { schemaDocuments, type JsonSchemaDocument } from '../../spec/index.js';

// Keywords that may sit beside a `$ref` in the contract: they only annotate, so merging them over
// the referenced schema changes no validation.
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'x-message']);

/**
 * A copy of `schema` with every `$ref` replaced by the schema it points to, so ajv compiles the
 * input into one function. ajv concatenates error arrays at each call between compiled functions,
 * which is quadratic in the error count: 20,000 bad filters would take seconds instead of
 * milliseconds. The contract has no recursive refs, so the copy is finite.
 */
export function inlineRefs(schema: JsonSchemaDocument): Record<string, unknown> {
  const documents = new Map(schemaDocuments.map((doc) => [doc.$id, doc]));
  return inline(schema, schema.$id, documents, []) as Record<string, unknown>;
}

function inline(
  node: unknown,
  baseId: string,
  documents: Map<string, JsonSchemaDocument>,
  trail: string[],
): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, baseId, documents, trail));
  if (typeof node !== 'object' || node === null) return node;
  const { $ref, ...rest } = node as Record<string, unknown>;
  const copy = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, inline(value, baseId, documents, trail)]),
  );
  if (typeof $ref !== 'string') return copy;

  const target = new URL($ref, baseId);
  const key = target.href;
  if (trail.includes(key)) throw new Error(`recursive $ref ${key} cannot be inlined`);
  const other = Object.keys(copy).find((key) => !ANNOTATIONS.has(key));
  if (other !== undefined) throw new Error(`${baseId}: "${other}" beside $ref ${$ref} would be lost`);
  const pointer = target.hash.replace(/^#/, '');
  target.hash = '';
  const doc = documents.get(target.href);
  if (doc === undefined) throw new Error(`${baseId}: $ref ${$ref} names no schema document`);
  const resolved = inline(resolvePointer(doc, pointer, $ref), doc.$id, documents, [...trail, key]);
  // An inlined document keeps no `$id`: a second input inlining it would register the id twice.
  const { $id: _id, $schema: _schema, ...body } = resolved as Record<string, unknown>;
  return { ...body, ...copy };
}

function resolvePointer(doc: JsonSchemaDocument, pointer: string, ref: string): unknown {
  if (pointer === '') return doc;
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) {
      throw new Error(`$ref ${ref} points at nothing`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
