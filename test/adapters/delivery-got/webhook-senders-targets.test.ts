import { expect } from 'chai';
import type { HostLookup } from '../../../adapters/delivery-got/index.js';
import type { SendResult } from '../../../core/ports/webhook-sender.js';
import { SENDERS, type ClosableSender } from './senders.js';
import { startTarget, type LocalTarget } from './local-target.js';

for (const [name, create] of SENDERS) {
  describe(`${name} target safety (private targets not allowed)`, () => {
    let target: LocalTarget;
    const senders: ClosableSender[] = [];
    const guarded = (lookup?: HostLookup) => {
      const sender = create({ allowPrivateTargets: false, lookup });
      senders.push(sender);
      return sender;
    };
    const send = (sender: ClosableSender, url: string): Promise<SendResult> =>
      sender.send({ url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 2000 });
    const expectRefusedUnseen = (result: SendResult, pattern: RegExp) => {
      expect(result.refusedTarget).to.equal(true);
      expect(result.status).to.equal(null);
      expect(result.error).to.match(pattern);
      expect(target.requests).to.have.length(0);
      expect(target.connections).to.equal(0);
    };

    beforeEach(async () => {
      target = await startTarget();
    });
    afterEach(async () => {
      senders.splice(0).forEach((s) => s.close());
      await target.close();
    });

    it('refuses http://127.0.0.1 without connecting', async () => {
      const result = await send(guarded(), `http://127.0.0.1:${target.port}/`);
      expectRefusedUnseen(result, /^refused target 127\.0\.0\.1: resolves to 127\.0\.0\.1 \(loopback\)$/);
    });

    it('refuses http://[::1] without connecting', async () => {
      const result = await send(guarded(), `http://[::1]:${target.port}/`);
      expectRefusedUnseen(result, /^refused target \[::1\]: resolves to ::1 \(loopback\)$/);
    });

    it('refuses the cloud metadata address 169.254.169.254', async () => {
      const result = await send(guarded(), 'http://169.254.169.254/latest/meta-data/');
      expectRefusedUnseen(result, /resolves to 169\.254\.169\.254 \(metadata\)/);
    });

    it('refuses a private address 10.0.0.1', async () => {
      const result = await send(guarded(), 'http://10.0.0.1/');
      expectRefusedUnseen(result, /resolves to 10\.0\.0\.1 \(private\)/);
    });

    it('refuses an IPv4-mapped IPv6 literal of a loopback address', async () => {
      const result = await send(guarded(), `http://[::ffff:127.0.0.1]:${target.port}/`);
      expectRefusedUnseen(result, /\(loopback\)/);
    });

    it('refuses localhost after resolving it with the system resolver', async () => {
      const result = await send(guarded(), `http://localhost:${target.port}/`);
      expectRefusedUnseen(result, /^refused target localhost: resolves to (127\.0\.0\.1|::1) \(loopback\)$/);
    });

    it('refuses a name its lookup resolves to 127.0.0.1, naming the host', async () => {
      const sender = guarded(async () => [{ address: '127.0.0.1', family: 4 }]);
      const result = await send(sender, `http://hooks.example.test:${target.port}/`);
      expectRefusedUnseen(
        result,
        /^refused target hooks\.example\.test: resolves to 127\.0\.0\.1 \(loopback\)$/,
      );
    });

    it('refuses a name when any one of its addresses is private', async () => {
      const sender = guarded(async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]);
      const result = await send(sender, `http://mixed.example.test:${target.port}/`);
      expectRefusedUnseen(result, /resolves to 127\.0\.0\.1 \(loopback\)/);
    });

    it('refuses a scheme other than http or https as a target never worth retrying', async () => {
      const result = await send(guarded(), 'ftp://example.com/hook');
      expectRefusedUnseen(result, /unsupported scheme ftp:/);
    });

    it('lets the same name through to 127.0.0.1 when private targets are allowed', async () => {
      const sender = create({
        allowPrivateTargets: true,
        lookup: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      senders.push(sender);
      const result = await send(sender, `http://hooks.example.test:${target.port}/`);
      expect(result).to.include({ status: 200, refusedTarget: false });
      expect(target.requests).to.have.length(1);
    });
  });
}
