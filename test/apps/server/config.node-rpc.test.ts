import { expect } from 'chai';
import { ConfigError, nodeRpcOptions, readServerConfig } from '../../../apps/server/config.js';

describe('readServerConfig: the node RPC', () => {
  it('asks no node unless one is named', () => {
    expect(nodeRpcOptions(readServerConfig({}))).to.equal(undefined);
  });

  it('takes the node from STACKHOOKS_NODE_RPC_URL, with a 2 s timeout and 128 requests at once by default', () => {
    const config = readServerConfig({ STACKHOOKS_NODE_RPC_URL: 'http://127.0.0.1:20443' });
    expect(nodeRpcOptions(config)).to.deep.equal({
      url: 'http://127.0.0.1:20443',
      timeoutMs: 2000,
      concurrency: 128,
    });
  });

  it('lets --node-rpc-url override the variable, and takes the timeout and concurrency from theirs', () => {
    const config = readServerConfig(
      {
        STACKHOOKS_NODE_RPC_URL: 'http://127.0.0.1:20443',
        STACKHOOKS_NODE_RPC_TIMEOUT: '500ms',
        STACKHOOKS_NODE_RPC_CONCURRENCY: '8',
      },
      { nodeRpcUrl: 'https://node.example:20443/' },
    );
    expect(nodeRpcOptions(config)).to.deep.equal({
      url: 'https://node.example:20443/',
      timeoutMs: 500,
      concurrency: 8,
    });
  });

  it('refuses a URL that is not http or https, naming the variable', () => {
    for (const url of ['127.0.0.1:20443', 'ftp://node:21', 'not a url']) {
      expect(() => readServerConfig({ STACKHOOKS_NODE_RPC_URL: url }), url)
        .to.throw(ConfigError)
        .with.property('message')
        .that.matches(/^STACKHOOKS_NODE_RPC_URL must be an http/);
    }
  });

  it('refuses a timeout of zero or over a minute', () => {
    for (const timeout of ['0s', '2m']) {
      expect(() => readServerConfig({ STACKHOOKS_NODE_RPC_TIMEOUT: timeout }), timeout).to.throw(
        ConfigError,
        /STACKHOOKS_NODE_RPC_TIMEOUT must be above 0 and at most 60s/,
      );
    }
  });
});
