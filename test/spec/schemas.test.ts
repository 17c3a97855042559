import { expect } from 'chai';
import { SCHEMA_BASE_URI, inputSchemas, schemaDocuments } from '../../spec/index.js';

describe('spec/schemas', () => {
  it('gives every document a unique $id under the base URI, in draft 2020-12', () => {
    const ids = schemaDocuments.map((doc) => doc.$id);
    expect(new Set(ids).size).to.equal(ids.length);
    for (const doc of schemaDocuments) {
      expect(doc.$id.startsWith(SCHEMA_BASE_URI), doc.$id).to.equal(true);
      expect(doc.$schema, doc.$id).to.equal('https://json-schema.org/draft/2020-12/schema');
    }
  });

  it('has one schema per input of the InputValidator port, each named after its file', () => {
    expect(Object.keys(inputSchemas)).to.have.members([
      'definition',
      'definition-update',
      'enable',
      'bulk-enable',
      'evaluate',
      'list-query',
      'uuid',
      'deliveries-query',
      'delivery-id',
      'backfill-request',
      'backfill-id',
    ]);
    for (const [name, schema] of Object.entries(inputSchemas)) {
      expect(schema.$id).to.equal(`${SCHEMA_BASE_URI}${name}.json`);
    }
  });
});
