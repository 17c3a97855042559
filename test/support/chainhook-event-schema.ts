// The official client's ChainhookEventSchema as an ajv validator: the authority on webhook body shapes.
import { Ajv } from 'ajv';
import {
  ChainhookEventSchema,
  StacksExecutionCostSchema,
  StacksStatusSchema,
} from '@hirosystems/chainhooks-client/schemas';

/** The schemas the client's circular `require` leaves out, by the property names they belong under. */
const LOST_SCHEMAS: Record<string, object> = {
  execution_cost: StacksExecutionCostSchema,
  status: StacksStatusSchema,
};

/**
 * The client's ChainhookEventSchema, made compilable. Its CommonJS build reads
 * `StacksExecutionCostSchema` and `StacksStatusSchema` through a circular `require`, so the
 * composed schema holds `undefined` (or `{}`) where they belong, which ajv rejects: put them back.
 * A required property left empty under any other name is a new gap, reported rather than passed.
 */
function repairedEventSchema(): object {
  const repaired = JSON.parse(JSON.stringify(ChainhookEventSchema)) as object;
  const unknownGaps: string[] = [];
  const fill = (node: unknown, path: string): void => {
    if (!node || typeof node !== 'object') return;
    const schema = node as { required?: string[]; properties?: Record<string, unknown> };
    for (const key of schema.required ?? []) {
      const current = schema.properties?.[key];
      const empty =
        current === undefined || (typeof current === 'object' && Object.keys(current as object).length === 0);
      if (!empty || !schema.properties) continue;
      if (LOST_SCHEMAS[key]) schema.properties[key] = LOST_SCHEMAS[key];
      else unknownGaps.push(`${path}/${key}`);
    }
    for (const [name, child] of Object.entries(node)) fill(child, `${path}/${name}`);
  };
  fill(repaired, '');
  if (unknownGaps.length > 0)
    throw new Error(`ChainhookEventSchema has empty required schemas at ${unknownGaps.join(', ')}`);
  return repaired;
}

const validate = new Ajv({ allErrors: true, strict: false }).compile(repairedEventSchema());

/** The errors of a webhook body against the client's ChainhookEventSchema (`path message`); empty when valid. */
export function validateChainhookEvent(body: unknown): string[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`,
  );
}
