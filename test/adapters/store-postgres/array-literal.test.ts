import { expect } from 'chai';
import { arrayLiteral, jsonTextsLiteral } from '../../../adapters/store-postgres/array-literal.js';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';

const AWKWARD = [
  '7e9a2c1e-0000-4000-8000-00000000002a',
  'NULL',
  'null',
  '',
  'with,comma',
  'quote"d',
  'back\\slash',
  '{braces}',
  ' spaced ',
  'ünïcode ✓',
  '0xabc',
];

describe('arrayLiteral', () => {
  it('leaves ids, hashes and numbers unquoted and quotes everything else', () => {
    expect(arrayLiteral(['abc-1', '0x2f', 7, null, 'a b', 'NULL'])).to.equal(
      '{abc-1,0x2f,7,NULL,"a b","NULL"}',
    );
  });
});

if (!(await postgresAvailable())) {
  describe('arrayLiteral in Postgres', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('arrayLiteral in Postgres', () => {
    let db: Awaited<ReturnType<typeof openTestDatabase>>;
    before(async () => {
      db = await openTestDatabase('arrays');
    });
    after(() => db.drop());

    it('reads back every text element exactly as given, a null as null', async () => {
      const values = [...AWKWARD, null];
      const { rows } = await db.pool.query<{ values: (string | null)[] }>('SELECT $1::text[] AS values', [
        arrayLiteral(values),
      ]);
      expect(rows[0].values).to.deep.equal(values);
    });

    it('reads back JSON texts and pieces of them exactly as given, a null as null', async () => {
      const body = JSON.stringify({
        text: 'line\nbreak, tab\t, nul\u0000, lone \ud800',
        quote: '"\\',
        ...AWKWARD,
      });
      const values = [
        body,
        body.slice(0, 17),
        body.slice(17),
        '[]',
        '{1,2}',
        JSON.stringify(AWKWARD),
        '',
        null,
      ];
      const { rows } = await db.pool.query<{ values: (string | null)[] }>('SELECT $1::text[] AS values', [
        jsonTextsLiteral(values),
      ]);
      expect(rows[0].values).to.deep.equal(values);
    });

    it('reads back numbers as the numbers given', async () => {
      const values = [0, 1, -5, 2 ** 53 - 1, null];
      const { rows } = await db.pool.query<{ values: (string | null)[] }>('SELECT $1::bigint[] AS values', [
        arrayLiteral(values),
      ]);
      expect(rows[0].values.map((v) => (v === null ? null : Number(v)))).to.deep.equal(values);
    });
  });
}
