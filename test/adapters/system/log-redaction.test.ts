import { expect } from 'chai';
import { isSecretField, redactFields } from '../../../adapters/system/index.js';

describe('isSecretField', () => {
  it('names keys, secrets, tokens, passwords and authorization headers in any spelling', () => {
    for (const name of [
      'authorization',
      'Authorization',
      'x-api-key',
      'apiKey',
      'API_KEY',
      'key',
      'secret',
      'consumer_secret',
      'webhookSecret',
      'password',
      'access_token',
      'cookie',
    ])
      expect(isSecretField(name), name).to.equal(true);
  });

  it('leaves ordinary fields alone', () => {
    for (const name of ['hook', 'payload', 'status', 'height', 'hash', 'keyId', 'owner', 'monkey'])
      expect(isSecretField(name), name).to.equal(false);
  });
});

describe('redactFields', () => {
  it('keeps the shape and the other values', () => {
    expect(redactFields({ hook: 'h', secret: 's', list: [1, { token: 't' }], none: null })).to.deep.equal({
      hook: 'h',
      secret: '[redacted]',
      list: [1, { token: '[redacted]' }],
      none: null,
    });
  });

  it('censors the credentials of URLs inside strings', () => {
    expect(redactFields({ error: 'at https://u:p@node.example/v2 and postgres://a:b@h/db' }).error).to.equal(
      'at https://[redacted]@node.example/v2 and postgres://[redacted]@h/db',
    );
  });

  it('turns an Error into its type, message and stack', () => {
    const out = redactFields({ err: new TypeError('bad') }).err as Record<string, unknown>;
    expect(out).to.include({ type: 'TypeError', message: 'bad' });
  });
});
