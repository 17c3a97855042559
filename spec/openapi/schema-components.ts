import { commonSchema, inputSchemas, responseSchemas, type JsonSchemaDocument } from '../schemas/index.js';

/** A JSON value as the OpenAPI document holds it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const COMPONENT_PREFIX = '#/components/schemas/';

/** A `$ref` to a component schema of the OpenAPI document. */
export function componentRef(name: string): { $ref: string } {
  return { $ref: `${COMPONENT_PREFIX}${name}` };
}

/**
 * The schema files as OpenAPI `components.schemas`: every `$defs` entry of the shared files and every
 * input file (under its `title`) becomes one component, and each `$ref` is rewritten to point at its
 * component. The copies are generated so that tools which cannot follow `$id`s still resolve every ref.
 */
export function schemaComponents(): Record<string, Json> {
  const componentOfDocument = new Map<string, string>();
  for (const doc of Object.values(inputSchemas)) componentOfDocument.set(doc.$id, titleOf(doc));

  const components: Record<string, Json> = {};
  const add = (name: string, schema: unknown, baseId: string) => {
    if (name in components) throw new Error(`two schemas would be the component ${name}`);
    components[name] = rewriteRefs(schema, baseId, componentOfDocument);
  };
  for (const shared of [commonSchema, responseSchemas]) {
    for (const [name, schema] of Object.entries(definitionsOf(shared))) add(name, schema, shared.$id);
  }
  for (const doc of Object.values(inputSchemas)) {
    const { $schema: _schema, $id: _id, ...schema } = doc;
    add(titleOf(doc), schema, doc.$id);
  }
  return components;
}

function rewriteRefs(value: unknown, baseId: string, componentOfDocument: Map<string, string>): Json {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, baseId, componentOfDocument));
  if (typeof value !== 'object' || value === null) return value as Json;
  const out: Record<string, Json> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof item === 'string'
        ? componentRefFor(item, baseId, componentOfDocument)
        : rewriteRefs(item, baseId, componentOfDocument);
  }
  return out;
}

function componentRefFor(ref: string, baseId: string, componentOfDocument: Map<string, string>): string {
  const target = new URL(ref, baseId);
  const pointer = decodeURIComponent(target.hash.replace(/^#/, ''));
  target.hash = '';
  const definition = /^\/\$defs\/([^/]+)$/.exec(pointer);
  if (definition) return `${COMPONENT_PREFIX}${definition[1]}`;
  const whole = componentOfDocument.get(target.href);
  if (pointer === '' && whole !== undefined) return `${COMPONENT_PREFIX}${whole}`;
  throw new Error(`cannot map $ref ${ref} (in ${baseId}) to a component`);
}

function definitionsOf(doc: JsonSchemaDocument): Record<string, unknown> {
  const defs = doc.$defs;
  if (typeof defs !== 'object' || defs === null) throw new Error(`${doc.$id} has no $defs`);
  return defs as Record<string, unknown>;
}

function titleOf(doc: JsonSchemaDocument): string {
  if (typeof doc.title !== 'string') throw new Error(`${doc.$id} has no title to name its component`);
  return doc.title;
}
