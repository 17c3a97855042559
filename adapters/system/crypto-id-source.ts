import { randomBytes, randomUUID } from 'node:crypto';
import { injectable } from 'inversify';
import type { IdSource } from '../../core/ports/id-source.js';

/** Identifiers and secrets from the operating system's CSPRNG. */
@injectable()
export class CryptoIdSource implements IdSource {
  /** A random v4 uuid. */
  uuid(): string {
    return randomUUID();
  }

  /** `bytes` random bytes as lowercase hex. */
  randomHex(bytes: number): string {
    return randomBytes(bytes).toString('hex');
  }
}
